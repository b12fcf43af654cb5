import EntrainAddressSpace
import EntrainCore
import EntrainEngine

/// The engine's parameter table as a family of the address space: entrainment, master, beat
/// analysis, light and haptics — and the two source lists (`/led/source`, `/haptic/source`),
/// which set their `/…/source/NAME` toggles together. Always the current engine (it is
/// replaced on a sample-rate change).
public final class EngineFamily: AddressFamily {
    public let name = "engine"
    let engine: CurrentEngine
    public let descriptors: [ControlDescriptor]
    private let byAddress: [String: ControlDescriptor]
    /// Composite addresses: the list address → its toggles' prefix and names.
    static let sourceLists: [String: [String]] = [
        "/led/source": LightParameters.sourceNames, "/haptic/source": HapticParameters.sourceNames,
    ]

    public init(_ engine: CurrentEngine) {
        self.engine = engine
        descriptors = Self.standardDescriptors
        byAddress = Dictionary(uniqueKeysWithValues: descriptors.map { ($0.address, $0) })
    }

    /// The descriptors of every engine address (no engine needed: session files are checked
    /// against them before anything plays).
    public static let standardDescriptors: [ControlDescriptor] = {
        var out = Engine.parameterTable.entries.map { descriptor($0.spec) }
        let table = Engine.parameterTable
        for (address, names) in sourceLists.sorted(by: { $0.key < $1.key }) {
            let on = names.filter { (try? table.entry(for: "\(address)/\($0)").spec.defaultValue) == 1 }
            out.append(ControlDescriptor(address, .list(options: names), default: .text(on.isEmpty ? "none" : on.joined(separator: ",")), glide: nil,
                                         "the sources to mix, comma-separated (sets the \(address)/NAME toggles together)"))
        }
        return out
    }()

    static func descriptor(_ spec: ParameterSpec) -> ControlDescriptor {
        let kind: ControlDescriptor.Kind, value: ControlValue
        switch spec.kind {
        case .continuous(let range, let d, let curve):
            kind = .number(range: range, step: nil, curve: curve == .logarithmic ? .logarithmic : .linear, integer: false)
            value = .number(d)
        case .choice(let options, let d):
            kind = .choice(options: options, indexed: true)
            value = .text(options[d])
        case .toggle(let d):
            kind = .toggle
            value = .bool(d)
        }
        return ControlDescriptor(spec.address, kind, unit: spec.unit, default: value, glide: spec.glideSeconds, personOnly: spec.personOnly, spec.summary)
    }

    public func descriptor(for address: String) -> ControlDescriptor? { byAddress[address] }

    private static let standardAddresses = Set(standardDescriptors.map(\.address))
    /// Whether `address` is one of the engine's (without an engine at hand).
    public static func owns(_ address: String) -> Bool { standardAddresses.contains(address) }

    public var schemaTitle: String { "Parameters" }
    public var schemaIntroduction: String {
        """
        The entrainment voices, the master section, beat analysis, light and haptics. Voice 1 lives at
        `/entrain/…`; voices 2–10 have the same eight fields at `/entrain/voice/N/…`, with their level
        defaulting to 0 (off). `/led/source` and `/haptic/source` set their `…/source/NAME` toggles
        together (no argument: a query answering with the list in force).
        """
    }

    public func value(of address: String) -> ControlValue? {
        let host = engine.host
        if let names = Self.sourceLists[address] {
            let on = names.filter { (try? host.valueInForce(of: "\(address)/\($0)")) == 1 }
            return .text(on.isEmpty ? "none" : on.joined(separator: ","))
        }
        guard let entry = try? host.table.entry(for: address) else { return nil }
        return Self.controlValue(host.valuesInForce[entry.index], entry.spec)  // what plays, not what is scheduled
    }

    public func snapshot() -> [(address: String, value: ControlValue)] {
        let host = engine.host, values = host.valuesInForce
        return host.table.entries.map { ($0.spec.address, Self.controlValue(values[$0.index], $0.spec)) }
    }

    /// Arming the strobe is a decision made each run, never carried in by a preset or a file.
    public func isTransient(_ address: String) -> Bool { StandardAddresses.isTransient(address) || Self.sourceLists[address] != nil }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        var batch: [EngineHost.Change] = []
        for change in changes {
            guard Self.owns(change.address) else { throw ControlError.unknown(change.address) }
            batch += try Self.numbers(change).map { EngineHost.Change($0.address, $0.value, glide: change.glide, exponential: change.exponential) }
        }
        do {
            try engine.host.set(batch, at: frame)
        } catch let error as ParameterError {
            throw Self.controlError(error)
        }
    }

    /// The engine's number for a checked value (an option's index, 0/1 for toggles).
    static func number(_ value: ControlValue, _ spec: ParameterSpec) throws -> Double {
        switch (spec.kind, value) {
        case (.choice(let options, _), .text(let name)):
            guard let i = options.firstIndex(of: name) else { throw ControlError(spec.address, "'\(name)' is not one of \(options.joined(separator: ", "))") }
            return Double(i)
        case (.toggle, .bool(let b)): return b ? 1 : 0
        case (_, .number(let n)): return n
        default: throw ControlError(spec.address, "cannot take '\(value)'")
        }
    }

    static func controlValue(_ number: Double, _ spec: ParameterSpec) -> ControlValue {
        switch spec.kind {
        case .choice(let options, _): .text(options.indices.contains(Int(number)) ? options[Int(number)] : "")
        case .toggle: .bool(number != 0)
        case .continuous: .number(number)
        }
    }

    /// The table's refusals in the address space's words (an unknown address says so alike).
    static func controlError(_ error: ParameterError) -> ControlError {
        if case .unknownAddress(let a) = error { return ControlError.unknown(a) }
        return ControlError(error.address, error.reason)
    }
}
