import Foundation

/// Everything the surfaces need to know about one address: its type, range, step, unit,
/// default, glide, and whether it may be set. One set of parsing and normalising rules for every
/// family lives here, so `/entrain/carrier` and `/ambient/reverbMix` read arguments alike.
public struct ControlDescriptor: Sendable {
    public enum Curve: String, Sendable { case linear, logarithmic }

    public enum Kind: Sendable, Equatable {
        /// A number; `range` nil = any finite number; `step` snaps accepted values; `integer`
        /// refuses fractions.
        case number(range: ClosedRange<Double>?, step: Double?, curve: Curve, integer: Bool)
        case toggle
        /// One of a fixed set of names (a number is taken as the option's index when
        /// `indexed`; the engine's choices are, the Kessho keys' are not).
        case choice(options: [String], indexed: Bool)
        /// Free text; `options` non-nil restricts it (e.g. scale names) without being an index.
        case text(options: [String]?)
        /// Any of `options`, comma-separated ("beat,manual"; "none" or "" for none).
        case list(options: [String])
    }

    public let address: String
    public let kind: Kind
    public let unit: String
    public let summary: String
    public let defaultValue: ControlValue
    /// Seconds a change glides when the sender does not say (0: at once; nil: cannot glide).
    public let glideSeconds: Double?
    /// Published only (set by the engine, or a read-only state): queries and feedback, no sets.
    public let readOnly: Bool
    /// A remark for the schema (e.g. whether the engine renders it yet).
    public let note: String?
    /// A person's decision (arming the strobe): set only through `ChangeDoor.person`, never
    /// carried by a file, a mapping or a schedule.
    public let personOnly: Bool
    /// Where its family keeps it (the engine: the parameter's index in its table), so a change
    /// found by address once carries it on; nil when the family keys by address.
    public private(set) var slot: Int?

    public init(_ address: String, _ kind: Kind, unit: String = "", default defaultValue: ControlValue,
                glide: Double? = 0, readOnly: Bool = false, personOnly: Bool = false, note: String? = nil, _ summary: String) {
        self.address = address
        self.kind = kind
        self.unit = unit
        self.summary = summary
        self.defaultValue = defaultValue
        self.glideSeconds = glide
        self.readOnly = readOnly
        self.personOnly = personOnly
        self.note = note
    }

    /// This descriptor, kept by its family at `slot`.
    public func kept(at slot: Int) -> ControlDescriptor {
        var copy = self
        copy.slot = slot
        return copy
    }

    // MARK: Parsing

    /// The change `given` asks for (natural units, or a fader position 0…1 when `normalized`),
    /// checked once: the one door every surface passes a value through.
    public func change(_ given: ControlValue, normalized: Bool = false, glide: Double? = nil) throws(ControlError) -> ControlChange {
        let value: ControlValue
        if normalized {
            switch given {
            case .number(let n): value = try self.value(fromNormalized: n)
            case .bool(let b): value = try self.value(fromNormalized: b ? 1 : 0)
            case .text: throw ControlError(address + "/norm", "expects a number 0–1, got '\(given)'")
            }
        } else {
            value = try parse(given)
        }
        return ControlChange(address, value, glide: glide, slot: slot)
    }

    /// The value `given` sets this address to, checked (never clamped: out of range is an
    /// error naming the range) and snapped to the step. Numbers may come as text (the command
    /// line, a preset); toggles take true/false, 1/0 (number or text), on/off, T/F, yes/no;
    /// choices take the option's name (or its index when `indexed`).
    public func parse(_ given: ControlValue) throws(ControlError) -> ControlValue {
        if readOnly { throw ControlError(address, "is read-only") }
        switch kind {
        case .number(let range, let step, _, let integer):
            let n: Double
            switch given {
            case .number(let v): n = v
            case .text(let s):
                guard let v = Double(s.trimmingCharacters(in: .whitespaces)) else {
                    throw ControlError(address, "expects a number\(inUnit), got '\(s)'")
                }
                n = v
            case .bool: throw ControlError(address, "expects a number\(inUnit), got a boolean")
            }
            guard n.isFinite else { throw ControlError(address, "value must be a finite number (got NaN or infinity)") }
            if let range, !range.contains(n) {
                throw ControlError(address, "\(Self.format(n))\(unitSuffix) is out of range \(Self.format(range.lowerBound))–\(Self.format(range.upperBound))\(unitSuffix)")
            }
            if integer && n != n.rounded() { throw ControlError(address, "expects a whole number, got \(Self.format(n))") }
            return .number(snap(n, step: step, range: range))
        case .toggle:
            switch given {
            case .bool(let b): return .bool(b)
            case .number(let n) where n == 0 || n == 1: return .bool(n == 1)
            case .text(let s):
                switch s.trimmingCharacters(in: .whitespaces).lowercased() {
                case "1", "on", "true", "t", "yes": return .bool(true)
                case "0", "off", "false", "f", "no": return .bool(false)
                default: break
                }
            default: break
            }
            throw ControlError(address, "expects on/off: T/F, 1/0, true/false or on/off, got '\(given)'")
        case .choice(let options, let indexed):
            switch given {
            case .text(let s):
                let name = s.trimmingCharacters(in: .whitespaces)
                if let match = options.first(where: { $0 == name }) ?? options.first(where: { $0.lowercased() == name.lowercased() }) {
                    return .text(match)
                }
                if indexed, let n = Double(name) { return try parse(.number(n)) }
            case .number(let n) where indexed:
                if n == n.rounded(), n >= 0, n < Double(options.count) { return .text(options[Int(n)]) }
            default: break
            }
            throw ControlError(address, "'\(given)' is not one of \(options.joined(separator: ", "))\(indexed ? " (or its index)" : "")")
        case .text(let options):
            guard case .text(let s) = given else { throw ControlError(address, "expects a string, got '\(given)'") }
            if let options, !options.contains(s) { throw ControlError(address, "'\(s)' is not one of \(options.joined(separator: ", "))") }
            return .text(s)
        case .list(let options):
            let names = "\(options.joined(separator: ", ")), or none"
            guard case .text(let s) = given else { throw ControlError(address, "expects a string: names separated by commas (\(names))") }
            let wanted = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { $0 != "none" && !$0.isEmpty }
            if let unknown = wanted.first(where: { !options.contains($0) }) {
                throw ControlError(address, "unknown name '\(unknown)' (\(names))")
            }
            let inOrder = options.filter(wanted.contains)
            return .text(inOrder.isEmpty ? "none" : inOrder.joined(separator: ","))
        }
    }

    /// The value a fader position 0…1 sets (outside 0…1 is clamped: a fader cannot ask for the
    /// impossible): on the range with its curve, then snapped; toggles switch at 0.5; choices in
    /// equal bands.
    public func value(fromNormalized given: Double) throws(ControlError) -> ControlValue {
        if readOnly { throw ControlError(address, "is read-only") }
        guard !given.isNaN else { throw ControlError(address + "/norm", "value must be a finite number (got NaN)") }
        let x = Swift.min(1, Swift.max(0, given))
        switch kind {
        case .number(let range?, let step, let curve, let integer):
            var n = curve == .logarithmic && range.lowerBound > 0
                ? range.lowerBound * pow(range.upperBound / range.lowerBound, x)
                : range.lowerBound + x * (range.upperBound - range.lowerBound)
            if integer { n = n.rounded() }
            return .number(snap(n, step: step, range: range))
        case .toggle: return .bool(x >= 0.5)
        case .choice(let options, _): return .text(options[Swift.min(options.count - 1, Int(x * Double(options.count)))])
        default: throw ControlError(address, "has no /norm address (only ranged numbers, toggles and choices)")
        }
    }

    /// Where a fader should sit for `value` (nil for text and unranged numbers).
    public func normalized(_ value: ControlValue) -> Double? {
        switch (kind, value) {
        case (.number(let range?, _, let curve, _), .number(let n)):
            let span = range.upperBound - range.lowerBound
            guard span > 0 else { return 0 }
            if curve == .logarithmic && range.lowerBound > 0 && n > 0 {
                return log(n / range.lowerBound) / log(range.upperBound / range.lowerBound)
            }
            return (n - range.lowerBound) / span
        case (.toggle, .bool(let b)): return b ? 1 : 0
        case (.choice(let options, _), .text(let s)):
            guard let i = options.firstIndex(of: s) else { return nil }
            return options.count > 1 ? (Double(i) + 0.5) / Double(options.count) : 0
        default: return nil
        }
    }

    private var unitSuffix: String { unit.isEmpty ? "" : " \(unit)" }
    private var inUnit: String { unit.isEmpty ? "" : " in \(unit)" }

    /// Clamp to the range, then snap to a multiple of the step (the Kessho web app's quantiser,
    /// so the state holds what its sliders would), then clamp again: a step that does not divide
    /// the range, or float rounding (0.35000000000000003), must not leave a value its own
    /// address would refuse.
    /// The default is always a value of its own (the web app's `leadDelayTime` defaults to 375 on
    /// a step of 10): kept as it is, so a value saved and read back is the value that was saved.
    private func snap(_ n: Double, step: Double?, range: ClosedRange<Double>?) -> Double {
        guard let step, step > 0, n != defaultValue.number else { return n }
        func clamp(_ x: Double) -> Double { range.map { Swift.min(Swift.max(x, $0.lowerBound), $0.upperBound) } ?? x }
        return clamp((clamp(n) / step).rounded() * step)
    }

    /// A number as a person writes it: integers without a decimal point.
    /// A number as a person writes it: whole numbers without a point, and a Float widened to
    /// Double (an LV2 plugin's range) as the Float it was: 0.4, not 0.4000000059604645.
    public static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        if let single = Float(exactly: value) { return String(single) }
        return String(value)
    }
}
