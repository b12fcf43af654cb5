import ArgumentParser
import EntrainAddressSpace
import EntrainControl
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

    /// The chains on `host`, their family added to `space`: the chains `restored` from the
    /// last-used settings or a preset (the last one for each bus; a bus named by `--insert` takes
    /// the command line's instead), then `--insert`, then `--set /fx/BUS/chain=…` among `changes`.
    /// A plugin given on the command line that cannot load stops the run with why; a restored
    /// chain that cannot load is reported to `warn` and the bus starts empty.
    func start(host: EngineHost, space: AddressSpace, restoring restored: [ControlChange] = [], changes: [ControlChange],
               warn: (String) -> Void = { _ in }) throws -> Fx {
        let fx: Fx
        do { fx = try Fx(host: host, space: space, inserts: inserts) } catch { throw ValidationError("--insert: \(error)") }
        for change in restoredChains(restored) {
            do { try space.set([change], from: .file) } catch { warn("the saved \(change.address) did not load (\(error)); that bus starts without plugins") }
        }
        do { try space.set(changes.filter { FxFamily.owns($0.address) }, from: .person) } catch { throw ValidationError("--set: \(error)") }
        return fx
    }

    /// The last chain given for each bus among `changes`, leaving out the buses `--insert` names.
    func restoredChains(_ changes: [ControlChange]) -> [ControlChange] {
        let named = Set(inserts.compactMap { try? Fx.parse($0).0 })
        return InsertBus.allCases.filter { !named.contains($0) }.compactMap { bus in
            changes.last { $0.address == FxChainAddresses.address(bus) }
        }
    }
}

/// Inserts in an offline render: the chains are made on the render's own engine before its first
/// block, their family joins the session player's address space (session stages may set
/// `/fx/BUS/chain`), and `--insert` and `--set /fx/…` apply as in `run`.
final class RenderInserts {
    private let options: InsertOptions
    private let changes: [ControlChange]
    private var fx: Fx?

    init(_ options: InsertOptions, changes: [ControlChange]) {
        self.options = options
        self.changes = changes
    }

    /// Wrap `job`'s schedule so the chains exist from its first block.
    func attach(to job: inout RenderJob, player: SessionPlayer?) {
        let inner = job.schedule
        job.schedule = { [self] host, frame in
            if fx == nil {
                let space = player?.space ?? AddressSpace()
                fx = try options.start(host: host, space: space, changes: changes)
                player?.space = space
            }
            try inner?(host, frame)
        }
    }
}
