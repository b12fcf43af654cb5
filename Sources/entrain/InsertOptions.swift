import ArgumentParser
import EntrainAddressSpace
import EntrainEngine
import EntrainLV2

/// `--insert BUS:URI`: hosted LV2 plugins on an output bus, in the order given.
struct InsertOptions: ParsableArguments {
    @Option(name: .customLong("insert"), help: ArgumentHelp("Host an LV2 plugin on an output bus before its ceiling, e.g. --insert entrainment:http://plugin.org.uk/swh-plugins/amp (repeatable, in order; see `entrain lv2 list`).", valueName: "bus:uri"))
    var inserts: [String] = []

    func validate() throws {
        for insert in inserts {
            do { _ = try Fx.parse(insert) } catch { throw ValidationError("--insert \(insert): \(error)") }
        }
    }

    /// The chains on `host`, their family added to `space`, then `--set /fx/BUS/chain=…` among
    /// `changes`; a plugin that cannot load stops the run with why.
    func start(host: EngineHost, space: AddressSpace, changes: [ControlChange]) throws -> Fx {
        let fx: Fx
        do { fx = try Fx(host: host, space: space, inserts: inserts) } catch { throw ValidationError("--insert: \(error)") }
        do { try space.set(changes.filter { FxFamily.owns($0.address) }) } catch { throw ValidationError("--set: \(error)") }
        return fx
    }
}
