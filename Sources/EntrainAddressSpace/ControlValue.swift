/// A value on its way to or from an address, typed but not yet tied to any family: what OSC,
/// the command line, a session file or a preset hands the address space.
public enum ControlValue: Sendable, Equatable, Hashable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
    case text(String)

    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var text: String? { if case .text(let s) = self { return s }; return nil }

    public var description: String {
        switch self {
        case .number(let n): ControlDescriptor.format(n)
        case .bool(let b): b ? "on" : "off"
        case .text(let s): s
        }
    }
}

/// One change for a family: a value already checked against its address's descriptor.
public struct ControlChange: Sendable, Equatable {
    public let address: String
    public let value: ControlValue
    /// Seconds to glide there; nil = the address's own glide.
    public let glide: Double?
    /// Constant-ratio glide; nil = the address's own curve.
    public let exponential: Bool?
    /// Where the family keeps the address (its descriptor's `slot`), carried from the one lookup
    /// so the family does not look it up again; nil: the family looks it up.
    public let slot: Int?

    public init(_ address: String, _ value: ControlValue, glide: Double? = nil, exponential: Bool? = nil, slot: Int? = nil) {
        self.address = address
        self.value = value
        self.glide = glide
        self.exponential = exponential
        self.slot = slot
    }

    /// The same change on another frame's terms: another glide and curve.
    public func gliding(_ glide: Double?, exponential: Bool? = nil) -> ControlChange {
        ControlChange(address, value, glide: glide, exponential: exponential, slot: slot)
    }

    /// Equal when they say the same; where the slot came from does not matter.
    public static func == (a: ControlChange, b: ControlChange) -> Bool {
        a.address == b.address && a.value == b.value && a.glide == b.glide && a.exponential == b.exponential
    }
}
