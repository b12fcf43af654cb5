import Foundation

/// One OSC argument, decoded.
public enum OSCValue: Equatable, Sendable, CustomStringConvertible {
    case int32(Int32), int64(Int64), float(Float), double(Double)
    case string(String), symbol(String), char(UInt8)
    case `true`, `false`, `nil`, infinitum
    case blob(Data), midi(UInt32), timetag(OSCTimetag)

    /// The OSC type tag character.
    public var tag: Character {
        switch self {
        case .int32: "i"
        case .int64: "h"
        case .float: "f"
        case .double: "d"
        case .string: "s"
        case .symbol: "S"
        case .char: "c"
        case .true: "T"
        case .false: "F"
        case .nil: "N"
        case .infinitum: "I"
        case .blob: "b"
        case .midi: "m"
        case .timetag: "t"
        }
    }

    /// Numeric value of i, h, f, d (what "accepted wherever a float is" means).
    public var number: Double? {
        switch self {
        case .int32(let v): Double(v)
        case .int64(let v): Double(v)
        case .float(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    public var text: String? {
        switch self {
        case .string(let s), .symbol(let s): s
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .string(let s), .symbol(let s): "\"\(s)\""
        default: number.map { "\($0)" } ?? String(tag)
        }
    }
}

/// An OSC time tag: NTP seconds since 1900 and a 2^-32 fraction. (0, 1) means "immediately".
public struct OSCTimetag: Equatable, Hashable, Sendable {
    public var seconds: UInt32
    public var fraction: UInt32

    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    public static let immediately = OSCTimetag(seconds: 0, fraction: 1)
    public var isImmediate: Bool { seconds == 0 && fraction <= 1 }

    /// Seconds between 1900 (NTP) and 1970 (Unix).
    static let unixEpochOffset: Double = 2_208_988_800

    public init(unixTime: Double) {
        let ntp = unixTime + Self.unixEpochOffset
        let whole = ntp.rounded(.down)
        seconds = UInt32(truncatingIfNeeded: Int64(whole))
        fraction = UInt32(min(4_294_967_295, ((ntp - whole) * 4_294_967_296).rounded()))
    }

    public var unixTime: Double { Double(seconds) - Self.unixEpochOffset + Double(fraction) / 4_294_967_296 }

    public static func now() -> OSCTimetag {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return OSCTimetag(unixTime: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
    }
}

/// A message: its address and arguments.
public struct OSCMessage: Equatable, Sendable, CustomStringConvertible {
    public var address: String
    public var arguments: [OSCValue]

    public init(_ address: String, _ arguments: [OSCValue] = []) {
        self.address = address
        self.arguments = arguments
    }

    public var typeTags: String { String(arguments.map(\.tag)) }
    public var description: String { "\(address) \(arguments.map(\.description).joined(separator: " "))" }
}
