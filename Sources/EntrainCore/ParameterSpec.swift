import Foundation

/// One engine parameter, declared once. The engine family of the address space derives its
/// descriptors from these (so OSC, the CLI, presets, sessions and osc-schema.md do too); the
/// engine host re-checks every value it is sent against them.
public struct ParameterSpec: Sendable {
    public enum Curve: String, Sendable { case linear, logarithmic }

    public enum Kind: Sendable {
        /// A number in natural units, with the range it must lie in.
        case continuous(range: ClosedRange<Double>, defaultValue: Double, curve: Curve)
        /// One of a fixed set of names; the engine sees the option's index.
        case choice(options: [String], defaultIndex: Int)
        /// On or off; the engine sees 1 or 0.
        case toggle(defaultValue: Bool)
    }

    /// The OSC address, also the parameter's name everywhere else.
    public let address: String
    public let kind: Kind
    /// Unit symbol for documentation ("Hz", "dBFS", "s", "" for none).
    public let unit: String
    public let summary: String
    /// How long a change glides when the sender does not say (seconds). 0 = applies at once.
    public let glideSeconds: Double
    /// A person's decision (arming the strobe): never taken from a file, a mapping or a schedule.
    public let personOnly: Bool
    /// Whether glides on this parameter are exponential (constant ratio), the natural sweep for frequencies.
    public var glidesExponentially: Bool {
        if case .continuous(_, _, .logarithmic) = kind { return true }
        return false
    }

    public init(_ address: String, _ kind: Kind, unit: String = "", glide: Double = 0, personOnly: Bool = false, _ summary: String) {
        self.address = address
        self.personOnly = personOnly
        self.kind = kind
        self.unit = unit
        self.summary = summary
        self.glideSeconds = glide
    }

    public var defaultValue: Double {
        switch kind {
        case .continuous(_, let value, _): return value
        case .choice(_, let index): return Double(index)
        case .toggle(let on): return on ? 1 : 0
        }
    }

    /// Checks a value in natural units (an option index for choices, 0/1 for toggles).
    public func validate(_ value: Double) throws -> Double {
        guard value.isFinite else { throw ParameterError.notFinite(address) }
        switch kind {
        case .continuous(let range, _, _):
            guard range.contains(value) else {
                throw ParameterError.outOfRange(address, value: value, range: range, unit: unit)
            }
            return value
        case .choice(let options, _):
            // Compare as Double first: Int(1e30) would trap.
            guard value == value.rounded(), value >= 0, value < Double(options.count) else {
                throw ParameterError.unknownOption(address, given: ParameterSpec.format(value), options: options)
            }
            return value
        case .toggle:
            guard value == 0 || value == 1 else {
                throw ParameterError.notAToggle(address, given: ParameterSpec.format(value))
            }
            return value
        }
    }

    /// The value as a person would write it: option names for choices, numbers otherwise.
    public func describe(_ value: Double) -> String {
        switch kind {
        case .choice(let options, _):
            let index = value.isFinite && abs(value) < 1e9 ? Int(value) : -1
            return options.indices.contains(index) ? options[index] : ParameterSpec.format(value)
        case .toggle: return value != 0 ? "on" : "off"
        case .continuous: return ParameterSpec.format(value) + (unit.isEmpty ? "" : " \(unit)")
        }
    }

    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

public enum ParameterError: Error, CustomStringConvertible, Equatable {
    case unknownAddress(String)
    case notFinite(String)
    case outOfRange(String, value: Double, range: ClosedRange<Double>, unit: String)
    case unknownOption(String, given: String, options: [String])
    case notAToggle(String, given: String)
    case constraint(String, reason: String)

    /// The address refused.
    public var address: String {
        switch self {
        case .unknownAddress(let a), .notFinite(let a), .outOfRange(let a, _, _, _), .unknownOption(let a, _, _), .notAToggle(let a, _),
             .constraint(let a, _): a
        }
    }

    /// Why, without the address (what `/error` carries beside it).
    public var reason: String {
        switch self {
        case .unknownAddress: return "no such parameter"
        case .notFinite: return "value must be a finite number (got NaN or infinity)"
        case .outOfRange(_, let v, let r, let unit):
            let u = unit.isEmpty ? "" : " \(unit)"
            return "\(ParameterSpec.format(v))\(u) is out of range \(ParameterSpec.format(r.lowerBound))–\(ParameterSpec.format(r.upperBound))\(u)"
        case .unknownOption(_, let given, let options): return "'\(given)' is not one of \(options.joined(separator: ", "))"
        case .notAToggle(_, let given): return "expected on/off (1/0), got '\(given)'"
        case .constraint(_, let reason): return reason
        }
    }

    public var description: String { "\(address): \(reason)" }
}
