import EntrainAddressSpace
import EntrainAmbient
import Kessho

/// The Kessho state as a family of the address space: all 403 keys at `/ambient/KEY`, with the
/// web's ranges and steps (values are snapped as the web's sliders snap them), time-tagged and
/// gliding changes through the conductor. `cofCurrentStep` is published, not set.
public final class AmbientFamily: AddressFamily {
    public static let prefix = "/ambient/"
    public let name = "ambient"
    let conductor: AmbientConductor
    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }

    public init(_ conductor: AmbientConductor) { self.conductor = conductor }

    /// Every key's descriptor (no engine needed: session files are checked against them), and
    /// the conductor's own settings (the tempo source of the lead and drums, the drum lanes'
    /// evolve: not Kessho keys, not hashed).
    public static let standardDescriptors: [ControlDescriptor] = addressed.map(descriptor) + conductorAddresses.map(\.descriptor)

    /// The keys with an address: every one the engine renders or reports (AmbientKeyStatus).
    static let addressed = KesshoParameters.all.filter { !AmbientKeyStatus.unaddressed.contains($0.key) }

    /// A stored-only key's former address: files that still name it (older presets, the
    /// last-used settings) have it ignored rather than refused.
    public static func isUnaddressed(_ address: String) -> Bool {
        address.hasPrefix(prefix) && AmbientKeyStatus.unaddressed.contains(String(address.dropFirst(prefix.count)))
    }

    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    static func descriptor(_ p: KesshoParameter) -> ControlDescriptor {
        let kind: ControlDescriptor.Kind
        switch p.kind {
        case .number(_, let step):
            // The quantiser's range, or the one a key without it still has (rootNote's 12 pitch
            // classes, whole numbers). A default outside it (drumNoiseAttack's 0) stays reachable,
            // so every state the web starts from can be set, saved and loaded back.
            let reachable = p.loadRange.map { r in p.defaultValue.number.map { Swift.min(r.lowerBound, $0)...Swift.max(r.upperBound, $0) } ?? r }
            kind = .number(range: reachable, step: step, curve: .linear, integer: p.needsWholeNumber)
        case .bool: kind = .toggle
        case .choice(let options): kind = .choice(options: options, indexed: false)
        case .text: kind = .text(options: p.key == "manualScale" ? KesshoScales.all.map(\.name) : nil)
        }
        let status = AmbientKeyStatus.status(of: p.key)
        let readOnly = if case .readOnly = status { true } else { false }
        return ControlDescriptor(prefix + p.key, kind, default: controlValue(p.defaultValue), glide: 0, readOnly: readOnly,
                                 note: status.summary, p.meaning)
    }

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }

    /// Whether `address` is a Kessho key's (without a conductor at hand).
    public static func owns(_ address: String) -> Bool { byAddress[address] != nil }

    public func value(of address: String) -> ControlValue? {
        guard Self.byAddress[address] != nil else { return nil }
        if let own = Self.conductorByAddress[address] { return own.read(conductor) }
        let key = String(address.dropFirst(Self.prefix.count))
        // The drift position lives in the conductor (the hashed state keeps the web's value).
        if key == "cofCurrentStep" { return .number(Double(conductor.harmony.step)) }
        return (conductor.state[key] ?? KesshoParameters.parameter(key)?.defaultValue).map(Self.controlValue)
    }

    public func snapshot() -> [(address: String, value: ControlValue)] {
        let state = conductor.state, step = conductor.harmony.step
        return Self.addressed.map { p in
            (Self.prefix + p.key, p.key == "cofCurrentStep" ? .number(Double(step)) : Self.controlValue(state[p.key] ?? p.defaultValue))
        } + Self.conductorAddresses.map { ($0.descriptor.address, $0.read(conductor)) }
    }

    /// The drift position is the engine's; the reverb's quality is the listener's choice at start.
    public func isTransient(_ address: String) -> Bool { StandardAddresses.isTransient(address) }

    /// Glides take the longest glide asked for (a stage's slide; OSC changes are immediate).
    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        try conductor.set(Self.keyed(changes), settings: Self.settings(changes), at: frame,
                          glideSeconds: changes.compactMap(\.glide).max() ?? 0)
    }

    static func controlValue(_ value: KesshoValue) -> ControlValue {
        switch value {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .text(s)
        }
    }

    static func kesshoValue(_ value: ControlValue) -> KesshoValue {
        switch value {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .text(let s): .string(s)
        }
    }
}
