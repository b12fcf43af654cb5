/// What entrain knows of one installed plugin, from its data alone (nothing is loaded).
public struct LV2Plugin: Sendable {
    public let uri: String
    public let name: String
    public let className: String
    public let isInstrument: Bool
    public let ports: [LV2Port]
    public let requiredFeatures: [String]
    public let bundle: String

    public func ports(_ kind: LV2Port.Kind) -> [LV2Port] { ports.filter { $0.kind == kind } }

    /// The plugin with every port's bounds in Hz at `sampleRate` (what a loaded instance shows).
    public func at(sampleRate: Double) -> LV2Plugin {
        LV2Plugin(uri: uri, name: name, className: className, isInstrument: isInstrument,
                  ports: ports.map { $0.at(sampleRate: sampleRate) }, requiredFeatures: requiredFeatures, bundle: bundle)
    }

    /// Host features entrain provides (anything else a plugin requires is refused by name).
    public static let providedFeatures: Set<String> = [
        "http://lv2plug.in/ns/ext/urid#map", "http://lv2plug.in/ns/ext/urid#unmap",
        "http://lv2plug.in/ns/ext/options#options", "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength",
        "http://lv2plug.in/ns/lv2core#isLive", "http://lv2plug.in/ns/lv2core#hardRTCapable",
        "http://lv2plug.in/ns/lv2core#inPlaceBroken", "http://lv2plug.in/ns/ext/worker#schedule",
    ]

    /// Why this plugin cannot be an insert on a stereo bus, or nil when it can: a required
    /// feature we do not provide (named), or audio ports that are not 1→1 or 2→2 (an
    /// instrument, played as a sound source: no audio input, 1 or 2 outputs, a MIDI input).
    public var insertRefusal: String? {
        if let missing = requiredFeatures.first(where: { !Self.providedFeatures.contains($0) }) {
            return "needs the host feature \(missing), which entrain does not provide"
        }
        let ins = ports(.audioIn).count, outs = ports(.audioOut).count
        if isInstrument {
            if !isPlayable { return "is an instrument with \(ins) audio input(s), \(outs) output(s)\(ports.contains { $0.takesMIDI } ? "" : " and no MIDI input"); a sound source needs no input, 1 or 2 outputs and a MIDI input" }
        } else if !((ins == 1 && outs == 1) || (ins == 2 && outs == 2)) {
            return "has \(ins) audio input(s) and \(outs) output(s); an insert needs 1→1 (run as a linked pair) or 2→2"
        }
        if let port = ports.first(where: { $0.kind == .other && !$0.optional }) {
            return "has a port of a kind entrain cannot connect (\(port.symbol))"
        }
        return nil
    }

    /// An instrument entrain can play as a sound source: no audio input, 1 or 2 outputs, MIDI in.
    public var isPlayable: Bool {
        isInstrument && ports(.audioIn).isEmpty && (1...2).contains(ports(.audioOut).count) && ports.contains { $0.takesMIDI }
    }

    /// The port reporting latency, if any.
    public var latencyPort: LV2Port? { ports.first { $0.reportsLatency && $0.kind == .controlOut } }
}
