import EntrainAddressSpace
import EntrainAmbient
import Kessho

/// One of the conductor's own members of the ambient family (not a Kessho key, never hashed):
/// its descriptor, the typed setting a checked value becomes, and how the conductor's value
/// reads back. The family routes by this table; the conductor never sees the address.
struct ConductorAddress: Sendable {
    let descriptor: ControlDescriptor
    let setting: @Sendable (ControlValue) -> ConductorSetting?
    let read: @Sendable (AmbientConductor) -> ControlValue

    init(_ descriptor: ControlDescriptor, setting: @escaping @Sendable (ControlValue) -> ConductorSetting?,
         read: @escaping @Sendable (AmbientConductor) -> ControlValue) {
        self.descriptor = descriptor
        self.setting = setting
        self.read = read
    }

    /// The setting `value` becomes once its descriptor has checked it (range, type, finite): the
    /// one check whether it comes over OSC, the command line or a file.
    func checked(_ value: ControlValue) throws(ControlError) -> ConductorSetting? { setting(try descriptor.parse(value)) }
}

extension AmbientFamily {
    /// The conductor's own addresses: the tempo source, then each drum lane's evolve settings.
    static let conductorAddresses: [ConductorAddress] = [tempoSource] + evolveAddresses
    static let conductorByAddress = Dictionary(uniqueKeysWithValues: conductorAddresses.map { ($0.descriptor.address, $0) })

    /// What the lead and drums keep time with.
    static let tempoSource = ConductorAddress(ControlDescriptor(
        prefix + "tempoSource", .choice(options: AmbientTempoSource.allCases.map(\.rawValue), indexed: false),
        default: .text(AmbientTempoSource.phrase.rawValue), glide: 0, readOnly: false,
        note: "rendered: the lead's and drums' clock; not part of the preset state",
        "what the lead and drums keep time with: phrase (the engine's own grid, drums at drumEuclidBaseBPM), "
            + "jack (JACK transport's tempo and bars while a timebase master runs), beat (the beat found on beat_in) or link "
            + "(an Ableton Link session followed, which the phrase grid follows too); "
            + "without such beats the phrase grid keeps time"),
        setting: { $0.text.flatMap(AmbientTempoSource.init(rawValue:)).map(ConductorSetting.tempoSource) },
        read: { .text($0.tempoSource.rawValue) })

    /// Each drum lane's evolve settings: `/ambient/drumEuclidNEvolve`, `…Every`, `…Intensity`.
    static let evolveAddresses: [ConductorAddress] = (1...4).flatMap { n in
        let note = "rendered: drum lane \(n)'s evolve; not part of the preset state", lane = n - 1
        let base = "\(prefix)drumEuclid\(n)Evolve"
        return [
            ConductorAddress(ControlDescriptor(base, .toggle, default: .bool(false), glide: 0, readOnly: false, note: note,
                                               "drum lane \(n) evolves: at bar boundaries of the drum clock its velocities, swing, step "
                                                   + "chances, ghost notes, hits (±1), rotation and pitch drift, pulled back toward the lane's "
                                                   + "sliders; drawn from a seeded stream (same preset, seed and start: same hits)"),
                             setting: { v in (v.bool ?? v.number.map { $0 >= 0.5 }).map { .evolve(lane: lane, .on($0)) } },
                             read: { .bool($0.evolve(lane: lane).on) }),
            ConductorAddress(ControlDescriptor(base + "Every", .number(range: 1...64, step: 1, curve: .linear, integer: true),
                                               default: .number(4), glide: 0, readOnly: false, note: note,
                                               "drum lane \(n) evolves every this many bars (4 beats)"),
                             setting: { v in v.number.flatMap { $0.isFinite ? .evolve(lane: lane, .everyBars(Int($0.rounded()))) : nil } },
                             read: { .number(Double($0.evolve(lane: lane).everyBars)) }),
            ConductorAddress(ControlDescriptor(base + "Intensity", .number(range: 0...1, step: 0.01, curve: .linear, integer: false),
                                               default: .number(0.5), glide: 0, readOnly: false, note: note,
                                               "how far drum lane \(n) drifts each evolve step (0: only the pull back home)"),
                             setting: { v in v.number.map { .evolve(lane: lane, .intensity($0)) } },
                             read: { .number($0.evolve(lane: lane).intensity) }),
        ]
    }

    /// The Kessho keys among `changes`, as the conductor's state takes them (the conductor's
    /// own settings and other families' addresses left out).
    public static func keyed(_ changes: [ControlChange]) -> [(key: String, value: KesshoValue)] {
        changes.filter { owns($0.address) && conductorByAddress[$0.address] == nil }
            .map { (String($0.address.dropFirst(prefix.count)), kesshoValue($0.value)) }
    }

    /// The conductor's own settings among `changes` (checked where they came in), typed, in order.
    public static func settings(_ changes: [ControlChange]) -> [ConductorSetting] {
        changes.compactMap { change in try? conductorByAddress[change.address]?.checked(change.value) }
    }

    /// A preset file's Kessho state may name the conductor's settings among its keys (they are
    /// kept as unknown keys by the loader): take them out, typed, so they are never hashed —
    /// each checked by its descriptor like any other door, a bad one dropped with a problem said.
    public static func takeSettings(from state: inout KesshoState) -> (settings: [ConductorSetting], problems: [String]) {
        var settings: [ConductorSetting] = [], problems: [String] = []
        for own in conductorAddresses {
            let key = String(own.descriptor.address.dropFirst(prefix.count))
            guard let value = state[key] else { continue }
            state[key] = nil
            do throws(ControlError) {
                if let setting = try own.checked(controlValue(value)) { settings.append(setting) }
            } catch {
                problems.append("\(error); ignored")
            }
        }
        return (settings, problems)
    }
}
