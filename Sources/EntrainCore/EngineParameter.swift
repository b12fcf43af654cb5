import EntrainAddressSpace

/// The engine's parameters are address-space descriptors (one vocabulary from the packet to the
/// table): declared in the shapes the engine renders — a ranged number, a choice it sees as the
/// option's index, a toggle it sees as 0/1 — and read by the engine as plain numbers.
extension ControlDescriptor {
    public enum Parameter: Sendable {
        /// A number in natural units, with the range it must lie in.
        case continuous(range: ClosedRange<Double>, defaultValue: Double, curve: Curve)
        /// One of a fixed set of names; the engine sees the option's index.
        case choice(options: [String], defaultIndex: Int)
        /// On or off; the engine sees 1 or 0.
        case toggle(defaultValue: Bool)
    }

    /// An engine parameter: `glide` is how long a change glides when the sender does not say.
    public init(_ address: String, _ parameter: Parameter, unit: String = "", glide: Double = 0, personOnly: Bool = false, _ summary: String) {
        switch parameter {
        case .continuous(let range, let value, let curve):
            self.init(address, .number(range: range, step: nil, curve: curve, integer: false), unit: unit, default: .number(value),
                      glide: glide, personOnly: personOnly, summary)
        case .choice(let options, let index):
            self.init(address, .choice(options: options, indexed: true), unit: unit, default: .text(options[index]),
                      glide: glide, personOnly: personOnly, summary)
        case .toggle(let on):
            self.init(address, .toggle, unit: unit, default: .bool(on), glide: glide, personOnly: personOnly, summary)
        }
    }

    /// The engine's number for a checked value: an option's index, 1 or 0 for a toggle.
    public func number(_ value: ControlValue) throws(ControlError) -> Double {
        switch (kind, value) {
        case (.choice(let options, _), .text(let name)):
            guard let i = options.firstIndex(of: name) else { throw ControlError(address, "'\(name)' is not one of \(options.joined(separator: ", "))") }
            return Double(i)
        case (.toggle, .bool(let b)): return b ? 1 : 0
        case (.number, .number(let n)): return n
        default: throw ControlError(address, "cannot take '\(value)'")
        }
    }

    /// The value an engine number stands for (an out-of-range index reads as no option).
    public func value(number: Double) -> ControlValue {
        switch kind {
        case .choice(let options, _): .text(number.isFinite && options.indices.contains(Int(number)) ? options[Int(number)] : "")
        case .toggle: .bool(number != 0)
        default: .number(number)
        }
    }

    /// A number given in the engine's terms (an index, 0/1), checked by the same rules as any value.
    public func checked(number: Double) throws(ControlError) -> Double { try self.number(parse(.number(number))) }

    /// The engine's number for the default.
    public var defaultNumber: Double { (try? number(defaultValue)) ?? 0 }

    /// Whether glides here are exponential (constant ratio), the natural sweep for frequencies.
    public var glidesExponentially: Bool {
        if case .number(_, _, .logarithmic, _) = kind { return true }
        return false
    }

    /// Whether the value glides (a number) rather than stepping (a choice or a toggle).
    public var isContinuous: Bool {
        if case .number = kind { return true }
        return false
    }

    /// An engine number as a person reads it: option names, on/off, numbers to six significant
    /// digits (a glide's way-points are not round: 974.059 Hz, not 974.0586065222449) with their unit.
    public func describe(number: Double) -> String {
        let value = value(number: number)
        guard case .number(let n) = value else { return value.description }
        let digits = String(format: "%.6g", n)
        return unit.isEmpty ? digits : "\(digits) \(unit)"
    }
}
