import EntrainAddressSpace

/// OSC arguments (and JSON scalars) in and out of the address space: numbers (i, h, f, d), booleans (T, F) and
/// strings (s, S) are values; what an address sends back follows its descriptor (numbers as
/// `f`, toggles as `T`/`F` — the type OSCQuery declares for them —, choices and text as `s`).
extension ControlValue {
    public init?(osc: OSCValue) {
        switch osc {
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .string(let s), .symbol(let s): self = .text(s)
        default:
            guard let n = osc.number else { return nil }
            self = .number(n)
        }
    }
}

extension ControlValue {
    /// A JSON scalar (a session's "set" block, a preset): numbers, strings, true/false.
    init?(json: JSONValue) {
        switch json {
        case .number(let n): self = .number(n)
        case .string(let s): self = .text(s)
        case .bool(let b): self = .bool(b)
        default: return nil
        }
    }
}

extension OSCValue {
    public init(_ value: ControlValue) {
        switch value {
        case .number(let n): self = .float(Float(n))
        case .bool(let b): self = b ? .true : .false
        case .text(let s): self = .string(s)
        }
    }
}

extension ControlDescriptor {
    /// The value and, where the address has one, its `/norm` position: what feedback sends.
    func feedback(_ value: ControlValue) -> [OSCMessage] {
        var out = [OSCMessage(address, [OSCValue(value)])]
        if let n = normalized(value) { out.append(OSCMessage(address + "/norm", [.float(Float(n))])) }
        return out
    }
}
