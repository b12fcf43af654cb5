import EntrainAddressSpace
import EntrainEngine

/// The one address of each bus's insert chain that exists before any plugin is loaded:
/// `/fx/BUS/chain`, the whole chain as text. Declared with the LV2 host, which sits below the
/// control surfaces, so files (presets, the last-used settings, session stages) and `--set` are
/// checked against it like any other standard address; the hosted-plugin family answers it at
/// run time.
public enum FxChainAddresses {
    public static let prefix = "/fx/"

    public static func address(_ bus: InsertBus) -> String { "\(prefix)\(bus.name)/chain" }

    public static func bus(of address: String) -> InsertBus? { InsertBus.allCases.first { self.address($0) == address } }

    public static func descriptor(_ bus: InsertBus) -> ControlDescriptor {
        ControlDescriptor(address(bus), .text(options: nil), default: .text(""), glide: nil,
                          "the \(bus.name) bus's plugins in order: 'URI symbol=value … [bypass=on]', slots separated by ' | ' (setting it replaces the chain)")
    }

    public static let standardDescriptors = InsertBus.allCases.map(descriptor)
}

extension FxChainAddresses {
    /// The chain-changing commands of every bus (handled by the LV2 host's `FxCommands`).
    public static func commands(_ bus: InsertBus) -> [CommandDescriptor] {
        let base = "\(prefix)\(bus.name)/"
        return [
            CommandDescriptor(base + "add", pattern: "/fx/BUS/add", [.required("s", "URI")], reply: """
                `/fx/BUS/add i:slot s:URI`; `/error` naming the reason (no such plugin, a feature entrain does not provide, ports \
                that do not fit the bus)
                """, """
                append an LV2 plugin to the insert chain of BUS (`entrainment`, `ambient`, or the mono `haptic`, which takes 1→1 \
                plugins only), before the ceiling; it fades in over 20 ms. Its controls then appear as `/fx/BUS/N/SYMBOL` and \
                `/fx/BUS/N/bypass` (slot N, from 1), described from the plugin's data (docs/lv2.md)
                """),
            CommandDescriptor(base + "remove", pattern: "/fx/BUS/remove", [.required("i", "slot")],
                              "remove a slot (it fades out first; the plugin is freed off the process thread)"),
            CommandDescriptor(base + "move", pattern: "/fx/BUS/move", [.required("i", "from"), .required("i", "to")], "move a slot (crossfaded)"),
        ]
    }

    public static let standardCommands = InsertBus.allCases.flatMap(commands)
}
