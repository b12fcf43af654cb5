import EntrainAddressSpace
import EntrainEngine

/// The one address of each bus's insert chain that exists before any plugin is loaded:
/// `/fx/BUS/chain`, the whole chain as text. Declared here, below the LV2 host, so files (presets,
/// the last-used settings, session stages) and `--set` are checked against it like any other
/// standard address; the hosted-plugin family answers it at run time.
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
