import EntrainAddressSpace
import EntrainHRV

/// HRV biofeedback as a family of the address space: the latest measures, published (read-only,
/// with /norm gauges for TouchOSC), and the few settings: the algorithm, the mappings and the
/// breathing pacer. Nothing here is carried by presets or the last-used settings: mappings and
/// the pacer are off at every start unless the command line, a session or OSC turns them on.
public final class HRVFamily: AddressFamily {
    public static let prefix = "/hrv/"
    static func owns(_ address: String) -> Bool { address.hasPrefix(prefix) }
    public let name = "hrv"
    let monitor: HRVMonitor

    public init(_ monitor: HRVMonitor) { self.monitor = monitor }

    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }

    static func published(_ key: String, _ range: ClosedRange<Double>?, unit: String = "", integer: Bool = false, _ summary: String) -> ControlDescriptor {
        ControlDescriptor(prefix + key, .number(range: range, step: nil, curve: .linear, integer: integer), unit: unit, default: .number(0),
                          glide: nil, readOnly: true, note: "published about once a second (read-only)", summary)
    }

    public static let standardDescriptors: [ControlDescriptor] = [
        published("hr", 0...240, unit: "bpm", "heart rate: from the last 5 RR intervals, or a BPM-only sender's value"),
        published("rmssd", 0...250, unit: "ms", "RMSSD over the window: root mean square of successive RR differences"),
        published("sdnn", 0...250, unit: "ms", "SDNN over the window: standard deviation of the RR intervals (n − 1)"),
        published("pnn50", 0...100, unit: "%", "pNN50 over the window: share of successive differences above 50 ms"),
        published("breath", 0...30, unit: "breaths/min", "breathing rate read from the RR series (0: none found)"),
        published("coherence", 0...1, "coherence: the share of the 0.04–0.26 Hz power within ±0.015 Hz of its peak"),
        published("ratio", nil, "HeartMath-style coherence ratio (peak / (total − peak))²"),
        published("entrainment", 0...1, "entrainment: the best RR autocorrelation at a breathing cycle's lag"),
        published("calm", 0...1, "the EBS mode score (calm): entrainment, steadiness, amplitude, low volatility"),
        published("membership", 0...1, "the reported mode's soft membership (the mode itself: /hrv/mode s f)"),
        published("stability", 0...1, "phase-space stability: 1 still, towards 0 moving fast"),
        published("beats", nil, integer: true, "RR intervals taken since the start (or the last change of algorithm)"),
        published("artifacts", nil, integer: true, "RR intervals rejected as artifacts since the start (or the last change of algorithm)"),
        ControlDescriptor(prefix + "available", .toggle, default: .bool(false), glide: nil, readOnly: true,
                          note: "published (read-only)", "1 while HRV is computed from live RR intervals; 0 without them (a BPM-only sender: heart rate only)"),
        ControlDescriptor(prefix + "algorithm", .choice(options: HRVSettings.Algorithm.allCases.map(\.rawValue), indexed: false),
                          default: .text("default"), glide: nil,
                          "default: fixed for real, noisy data; reference: the EBS reference engine's numbers (restarts the pipeline)"),
    ] + HRVMapping.sources.flatMap { source in [
        ControlDescriptor(prefix + "map/\(source)", .text(options: nil), default: .text("none"), glide: nil,
                          "the address \(source) steers (a settable ranged number, toggle or choice), or none: off"),
        ControlDescriptor(prefix + "map/\(source)/low", .number(range: 0...1, step: nil, curve: .linear, integer: false), default: .number(0),
                          glide: nil, "fader position of the target (0…1 on its range) at \(source) 0"),
        ControlDescriptor(prefix + "map/\(source)/high", .number(range: 0...1, step: nil, curve: .linear, integer: false), default: .number(1),
                          glide: nil, "fader position of the target at \(source) 1"),
    ] } + [
        ControlDescriptor(prefix + "pacer", .toggle, default: .bool(false), glide: nil,
                          "breathing pacer: the targets swell up and down once per breath (turn their manual sources on)"),
        ControlDescriptor(prefix + "pacer/rate", .number(range: 0...HRVPacer.rates.upperBound, step: nil, curve: .linear, integer: false),
                          unit: "breaths/min", default: .number(6), glide: nil,
                          "the pacer's rate; 0 follows the measured breathing rate; kept within 3–20"),
        ControlDescriptor(prefix + "pacer/depth", .number(range: 0...1, step: nil, curve: .linear, integer: false), default: .number(1),
                          glide: nil, "the swell's top, as a fader position of each target (its bottom is 0)"),
        ControlDescriptor(prefix + "pacer/targets", .text(options: nil), default: .text("/led/manual,/haptic/intensity"), glide: nil,
                          "the addresses the pacer moves, comma-separated"),
    ]
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }
    public func isTransient(_ address: String) -> Bool { true }

    public func value(of address: String) -> ControlValue? {
        guard Self.byAddress[address] != nil else { return nil }
        return value(String(address.dropFirst(Self.prefix.count)), monitor.latest, monitor.settings)
    }

    /// Every value from one update (the feedback reads this 30 times a second).
    public func snapshot() -> [(address: String, value: ControlValue)] {
        let u = monitor.latest, settings = monitor.settings
        return Self.standardDescriptors.compactMap { d in value(String(d.address.dropFirst(Self.prefix.count)), u, settings).map { (d.address, $0) } }
    }

    private func value(_ key: String, _ u: HRVUpdate?, _ settings: HRVMonitor.Settings) -> ControlValue? {
        switch key {
        case "hr": return .number(monitor.heartRate)
        case "rmssd": return .number(u?.timeDomain.rmssd ?? 0)
        case "sdnn": return .number(u?.timeDomain.sdnn ?? 0)
        case "pnn50": return .number(u?.timeDomain.pnn50 ?? 0)
        case "breath": return .number(u?.metrics.breath.rate ?? 0)
        case "coherence": return .number(u?.coherence ?? 0)
        case "ratio": return .number(u?.spectral?.ratio ?? 0)
        case "entrainment": return .number(u?.metrics.entrainment.value ?? 0)
        case "calm": return .number(u?.metrics.calm ?? 0)
        case "membership": return .number(u?.mode.membership ?? 0)
        case "stability": return .number(u?.phase.stability ?? 0)
        case "artifacts": return .number(Double(monitor.counts.rejected))
        case "beats": return .number(Double(monitor.counts.accepted))
        case "available": return .bool(u != nil)
        default: return setting(key, settings)
        }
    }

    private func setting(_ key: String, _ s: HRVMonitor.Settings) -> ControlValue? {
        switch key {
        case "algorithm": return .text(s.algorithm.rawValue)
        case "pacer": return .bool(s.pacer.on)
        case "pacer/rate": return .number(s.pacer.rate)
        case "pacer/depth": return .number(s.pacer.depth)
        case "pacer/targets": return .text(s.pacer.targets.joined(separator: ","))
        default:
            let parts = key.split(separator: "/").map(String.init)
            guard parts.count >= 2, parts[0] == "map", let mapping = s.mappings[parts[1]] else { return nil }
            if parts.count == 2 { return .text(mapping.target ?? "none") }
            return .number(parts[2] == "low" ? mapping.low : mapping.high)
        }
    }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        let space = monitor.space
        // Before the client's space exists (start-up), the standard addresses stand in.
        let lookup: (String) -> ControlDescriptor? = { space?.lookup($0)?.descriptor ?? StandardAddresses.descriptor(for: $0) }
        for change in changes { try MappingTargets.check(change, in: lookup) }
        try monitor.change { s in
            for change in changes {
                let key = String(change.address.dropFirst(Self.prefix.count))
                try apply(key, change.value, to: &s)
            }
        }
    }

    /// One checked change (targets were checked by `set`).
    private func apply(_ key: String, _ value: ControlValue, to s: inout HRVMonitor.Settings) throws {
        switch key {
        case "algorithm": s.algorithm = HRVSettings.Algorithm(rawValue: value.text ?? "") ?? .standard
        case "pacer": s.pacer.on = value.bool ?? false
        case "pacer/rate": s.pacer.rate = value.number ?? 6
        case "pacer/depth": s.pacer.depth = value.number ?? 1
        case "pacer/targets":
            s.pacer.targets = HRVMapping.targets(of: ControlChange(Self.prefix + key, value))
        default:
            let parts = key.split(separator: "/").map(String.init)
            guard parts.count >= 2, parts[0] == "map", s.mappings[parts[1]] != nil else { throw ControlError.unknown(Self.prefix + key) }
            if parts.count == 2 {
                let target = (value.text ?? "none").trimmingCharacters(in: .whitespaces)
                s.mappings[parts[1]]?.target = target == "none" || target.isEmpty ? nil : target
            } else if parts[2] == "low" {
                s.mappings[parts[1]]?.low = value.number ?? 0
            } else {
                s.mappings[parts[1]]?.high = value.number ?? 1
            }
        }
    }

    public var schemaTitle: String { "HRV biofeedback" }
    public var schemaIntroduction: String { HRVController.schemaIntroduction }
    public var commands: [CommandDescriptor] { HRVController.declarations.map(\.descriptor) }
}
