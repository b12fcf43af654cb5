import EntrainCore
import Foundation
import Kessho

/// A refused ambient message: the reason goes back to the sender as /error.
public struct AmbientError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ reason: String) { description = reason }
}

/// OSC values for Kessho keys: checked by the key's kind, never clamped (out of range is an
/// error naming the range), then snapped with the web's quantize() so the state holds exactly
/// what the web's sliders would.
public enum AmbientParameters {
    public static func parameter(_ key: String) throws(AmbientError) -> KesshoParameter {
        guard let p = KesshoParameters.parameter(key) else { throw AmbientError("unknown key '\(key)'") }
        return p
    }

    /// The value an OSC argument sets `key` to.
    public static func value(_ argument: OSCValue, for key: String) throws(AmbientError) -> KesshoValue {
        let p = try parameter(key)
        if case .readOnly(let why) = AmbientKeyStatus.status(of: key) { throw AmbientError("read-only (\(why))") }
        switch p.kind {
        case .number(let range, _):
            let n = try number(argument)
            if let range {
                guard range.contains(n) else { throw AmbientError("\(format(n)) is out of range \(describe(range))") }
                return .number(p.quantize(n))
            }
            // rootNote: no quantiser entry on the web; its slider is the 12 pitch classes.
            guard p.loadRange?.contains(n) ?? true, n == n.rounded() else { throw AmbientError("expects an integer 0…11 (C=0 … B=11)") }
            return .number(n)
        case .bool: return .bool(try flag(argument))
        case .choice(let options):
            guard let s = argument.text, options.contains(s) else {
                throw AmbientError("expects one of \(options.joined(separator: ", "))")
            }
            return .string(s)
        case .text:
            guard let s = argument.text else { throw AmbientError("expects a string, got '\(argument.tag)'") }
            if key == "manualScale", KesshoScales.named(s) == nil {
                throw AmbientError("unknown scale; one of \(KesshoScales.all.map(\.name).joined(separator: ", "))")
            }
            return .string(s)
        }
    }

    /// The value a command-line text (`--set /ambient/KEY=TEXT`) sets `key` to, checked as an
    /// OSC value would be: numbers for numeric keys, on/off/true/false/1/0 for toggles, names
    /// for choices and text.
    public static func value(text: String, for key: String) throws(AmbientError) -> KesshoValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch try parameter(key).kind {
        case .number:
            guard let n = Double(trimmed) else { throw AmbientError("expects a number, got '\(trimmed)'") }
            return try value(.double(n), for: key)
        case .bool:
            return try value(trimmed == "1" ? .true : trimmed == "0" ? .false : .string(trimmed), for: key)
        case .choice, .text:
            return try value(.string(trimmed), for: key)
        }
    }

    /// The value a 0…1 fader position sets `key` to: linear over a number's range, toggles at
    /// 0.5, choices in equal bands. Positions outside 0…1 are clamped, as for the other /norm
    /// addresses (a fader cannot go further).
    public static func value(normalized argument: OSCValue, for key: String) throws(AmbientError) -> KesshoValue {
        let p = try parameter(key)
        if case .readOnly(let why) = AmbientKeyStatus.status(of: key) { throw AmbientError("read-only (\(why))") }
        let n = min(max(try number(argument), 0), 1)
        switch p.kind {
        case .number(let range?, _): return .number(p.quantize(range.lowerBound + n * (range.upperBound - range.lowerBound)))
        case .bool: return .bool(n >= 0.5)
        case .choice(let options): return .string(options[min(Int(n * Double(options.count)), options.count - 1)])
        default: throw AmbientError("has no /norm address (only ranged numbers, toggles and choices)")
        }
    }

    /// The value as sent back: floats for numbers, 1/0 for toggles, strings as they are.
    public static func natural(_ value: KesshoValue) -> OSCValue {
        switch value {
        case .number(let n): .float(Float(n))
        case .bool(let b): .int32(b ? 1 : 0)
        case .string(let s): .string(s)
        }
    }

    /// The fader position of `value`, when the key has a /norm address (the middle of a choice's band).
    public static func normalized(_ value: KesshoValue, for key: String) -> Float? {
        switch (KesshoParameters.parameter(key)?.kind, value) {
        case (.number(let range?, _)?, .number(let n)):
            return Float(min(max((n - range.lowerBound) / (range.upperBound - range.lowerBound), 0), 1))
        case (.bool?, .bool(let b)): return b ? 1 : 0
        case (.choice(let options)?, .string(let s)):
            return options.firstIndex(of: s).map { Float((Double($0) + 0.5) / Double(options.count)) }
        default: return nil
        }
    }

    static func number(_ argument: OSCValue) throws(AmbientError) -> Double {
        guard let n = argument.number else { throw AmbientError("expects a number (i, h, f or d), got '\(argument.tag)'") }
        guard n.isFinite else { throw AmbientError("expects a finite number") }
        return n
    }

    /// T/F, 0/1 as a number, or on/off/true/false.
    static func flag(_ argument: OSCValue) throws(AmbientError) -> Bool {
        switch argument {
        case .true: return true
        case .false: return false
        default:
            if let n = argument.number, n == 0 || n == 1 { return n == 1 }
            switch argument.text?.lowercased() {
            case "on"?, "true"?: return true
            case "off"?, "false"?: return false
            default: throw AmbientError("expects T/F, 1/0 or on/off/true/false")
            }
        }
    }

    static func describe(_ range: ClosedRange<Double>) -> String { "\(format(range.lowerBound))…\(format(range.upperBound))" }

    static func format(_ n: Double) -> String { ParameterSpec.format(n) }
}
