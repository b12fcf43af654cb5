import ArgumentParser
import Foundation
import EntrainAddressSpace
import EntrainControl
import EntrainJACK
import Logging
import Synchronization

/// `--pixels FILE`: LED strips and matrices over DDP, sACN or Art-Net (docs/pixels.md).
struct PixelOptions: ParsableArguments {
    @Option(name: .customLong("pixels"), help: ArgumentHelp("A rig file of pixel outputs (JSON: name, pixels, layout, protocol ddp/sacn/artnet, target, universe, order; docs/pixels.md).", valueName: "file"))
    var rig: String?

    /// Under a session manager, the rig saved with the session unless the command line names one.
    func restoring(_ saved: String?) -> PixelOptions {
        var options = self
        if options.rig == nil { options.rig = saved }
        return options
    }

    /// The rig as a session manager's save keeps it: it starts us in a folder of its own.
    var absoluteRig: String? { rig.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }

    /// One family per output of the rig file (none without --pixels).
    func families() throws -> [PixelFamily] {
        guard let rig else { return [] }
        do { return try PixelRig.read(rig).map(PixelFamily.init) } catch { throw ValidationError("--pixels: \(error)") }
    }

    /// The command line's and the carried settings' changes of these outputs: `--set` must name
    /// an output of the rig; a preset's or the last-used settings' for other outputs are dropped.
    static func changes(carried: [ControlChange], given: [ControlChange], families: [PixelFamily]) throws -> [ControlChange] {
        let names = Set(families.map { PixelAddresses.prefix + $0.spec.name + "/" })
        func known(_ c: ControlChange) -> Bool { names.contains { c.address.hasPrefix($0) } }
        let mine = given.filter { $0.address.hasPrefix(PixelAddresses.prefix) }
        if let stranger = mine.first(where: { !known($0) }) {
            throw ValidationError("--set \(stranger.address): no pixel output of that name (\(families.isEmpty ? "no --pixels rig" : families.map(\.spec.name).joined(separator: ", ")))")
        }
        return carried.filter(known) + mine
    }

    /// A sender on its own thread when the rig has outputs, reading the client's analysis and light.
    func sender(families: [PixelFamily], client: JackClient, current: CurrentEngine, logger: Logger) throws -> PixelSender? {
        guard !families.isEmpty else { return nil }
        client.startPixelTap()
        let source = PixelLightSource(
            take: { client.takePixelFrames($0) }, now: { client.engineFrameNow() },
            soundLatency: { client.playbackLatency + client.ownLatency }, portLatency: { client.lightLatency },
            lightOffsetMilliseconds: { (try? current.host.value(of: "/led/offset")) ?? 0 }, sampleRate: { client.sampleRate },
            thermalState: { current.host.status.pointee.lightThermalState.load(ordering: .relaxed) },
            panicked: { current.host.isPanicked }, armed: { (try? current.host.value(of: "/led/arm")) == 1 })
        return try PixelSender(families: families, source: source, logger: logger)
    }
}
