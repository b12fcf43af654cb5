import ArgumentParser
import EntrainAddressSpace
import EntrainControl
import EntrainJACK
import Logging

/// DMX options of `run`: where frames go (Art-Net, sACN), the universe, the channel map, the rate.
struct DMXOptions: ParsableArguments {
    @Option(name: .customLong("artnet"), help: ArgumentHelp("Send the light as Art-Net DMX (ArtDmx) to a node or a broadcast address (default port 6454).", valueName: "host[:port]"))
    var artNet: [String] = []
    @Option(name: .customLong("sacn"), help: ArgumentHelp("Send the light as sACN (E1.31) DMX to a receiver (unicast, default port 5568).", valueName: "host[:port]"))
    var sACN: [String] = []
    @Flag(name: .customLong("sacn-multicast"), help: "Send sACN to the universe's multicast group (239.255.x.y:5568).")
    var sACNMulticast = false
    @Option(name: .customLong("dmx-universe"), help: "DMX universe: Art-Net port address 0-32767, sACN universe 1-63999.")
    var universe = 1
    @Option(name: .customLong("dmx-map"), help: ArgumentHelp("Which channel shows what, e.g. 1=led,2=led_2*0.5,3=haptic_intensity:16,9=255 (docs/rig-outputs.md).", valueName: "map"))
    var map: String?
    @Option(name: .customLong("dmx-rate"), help: "DMX frames per second, 1-44 (default 40).")
    var rate: Double?

    var targets: [DMXTarget] {
        get throws {
            var all = try artNet.map { try DMXTarget.parse(.artNet, $0) } + sACN.map { try DMXTarget.parse(.sACN, $0) }
            if sACNMulticast { all.append(DMXTarget(.sACN, address: SACNPacket.multicastGroup(universe: universe))) }
            return all
        }
    }

    func validate() throws {
        do { _ = try targets } catch { throw ValidationError("\(error)") }
        if !artNet.isEmpty && !ArtNetPacket.universes.contains(universe) {
            throw ValidationError("--dmx-universe: Art-Net port addresses run 0 to 32767, got \(universe)")
        }
        if (!sACN.isEmpty || sACNMulticast) && !SACNPacket.universes.contains(universe) {
            throw ValidationError("--dmx-universe: sACN universes run 1 to 63999, got \(universe)")
        }
        if let rate, !DMXSettings.rates.contains(rate) { throw ValidationError("--dmx-rate must be 1 to 44 frames per second, got \(rate)") }
        if let map { do { _ = try DMXChannelMap(parsing: map) } catch { throw ValidationError("--dmx-map: \(error)") } }
    }

    /// The command line's DMX settings as changes of the address space (after a preset's).
    var changes: [ControlChange] {
        var out: [ControlChange] = []
        if let map { out.append(ControlChange(DMXFamily.prefix + "map", .text(map))) }
        if let rate { out.append(ControlChange(DMXFamily.prefix + "rate", .number(rate))) }
        return out
    }

    /// A sender on its own thread when a target was given, reading the client's light.
    func sender(family: DMXFamily, client: JackClient, current: CurrentEngine, logger: Logger) throws -> DMXSender? {
        let targets = try targets
        guard !targets.isEmpty else { return nil }
        client.startLightTap()
        let source = DMXLightSource(take: { client.takeLightFrames($0) }, now: { client.engineFrameNow() },
                                    portLatency: { client.lightLatency }, sampleRate: { client.sampleRate },
                                    panicked: { current.host.isPanicked }, armed: { (try? current.host.value(of: "/led/arm")) == 1 })
        return try DMXSender(targets: targets, family: family, source: source, logger: logger)
    }
}

extension DMXOptions {
    /// The settings a run starts with (the universe is fixed for the run).
    var settings: DMXSettings {
        var s = DMXSettings()
        s.universe = universe
        return s
    }
}
