import CLo
import Foundation

/// Why a packet could not be decoded; the text goes back to the sender in /error.
public enum OSCDecodeError: Error, Equatable, CustomStringConvertible {
    case empty
    case tooLarge(Int)
    case notOSC
    case badAddress
    case malformed(code: Int32)
    case badBundle(String)
    case tooDeep

    public var description: String {
        switch self {
        case .empty: "empty packet"
        case .tooLarge(let n): "packet of \(n) bytes is over the \(OSCCodec.maximumPacketSize)-byte limit"
        case .notOSC: "not an OSC packet (must start with '/' or '#bundle')"
        case .badAddress: "malformed address (must be a padded string of printable ASCII starting with '/')"
        case .malformed(let code): "malformed message (liblo error \(code): \(OSCCodec.describe(code)))"
        case .badBundle(let why): "malformed bundle: \(why)"
        case .tooDeep: "bundles nested more than \(OSCCodec.maximumDepth) deep"
        }
    }
}

/// A decoded message with the time tag of the bundle it came in (immediately if none).
public struct TimedMessage: Equatable, Sendable {
    public var timetag: OSCTimetag
    public var message: OSCMessage

    public init(timetag: OSCTimetag, message: OSCMessage) {
        self.timetag = timetag
        self.message = message
    }
}

/// OSC encoding and decoding. Messages go through liblo (lo_message_deserialise and
/// lo_message_serialise); bundles are walked here so every element keeps its time tag.
public enum OSCCodec {
    public static let maximumPacketSize = 65_507  // the largest UDP payload over IPv4
    public static let maximumDepth = 8

    /// Decode a datagram (or TCP frame) into its messages, in order.
    public static func decode(_ packet: UnsafeRawBufferPointer) throws -> [TimedMessage] {
        guard packet.count > 0 else { throw OSCDecodeError.empty }
        guard packet.count <= maximumPacketSize else { throw OSCDecodeError.tooLarge(packet.count) }
        var out: [TimedMessage] = []
        try decode(packet, timetag: .immediately, depth: 0, into: &out)
        return out
    }

    public static func decode(_ bytes: [UInt8]) throws -> [TimedMessage] {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    private static let bundleTag: [UInt8] = Array("#bundle".utf8) + [0]

    private static func decode(_ data: UnsafeRawBufferPointer, timetag: OSCTimetag, depth: Int,
                               into out: inout [TimedMessage]) throws {
        if data.first == UInt8(ascii: "#") {
            guard depth < maximumDepth else { throw OSCDecodeError.tooDeep }
            guard data.count >= 16, data.prefix(8).elementsEqual(bundleTag) else {
                throw OSCDecodeError.badBundle("missing '#bundle' header or time tag")
            }
            let tag = OSCTimetag(seconds: bigEndian32(data, 8), fraction: bigEndian32(data, 12))
            var offset = 16
            while offset < data.count {
                guard offset + 4 <= data.count else { throw OSCDecodeError.badBundle("truncated element size") }
                let size = Int(Int32(bitPattern: bigEndian32(data, offset)))
                offset += 4
                guard size > 0, size % 4 == 0, offset + size <= data.count else {
                    throw OSCDecodeError.badBundle("element size \(size) does not fit the bundle")
                }
                try decode(UnsafeRawBufferPointer(rebasing: data[offset..<(offset + size)]), timetag: tag,
                           depth: depth + 1, into: &out)
                offset += size
            }
        } else {
            out.append(TimedMessage(timetag: timetag, message: try decodeMessage(data)))
        }
    }

    static func bigEndian32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
    }

    /// One message: the address parsed here, the arguments by liblo.
    static func decodeMessage(_ data: UnsafeRawBufferPointer) throws -> OSCMessage {
        guard data.first == UInt8(ascii: "/") else { throw OSCDecodeError.notOSC }
        // Printable ASCII only, checked on the bytes: a flood's allowed share is decoded here, and
        // character properties cost more than the rest of the message.
        guard let end = data.firstIndex(of: 0), end < 1024,
              data[0..<end].allSatisfy({ (0x21...0x7E).contains($0) }) else { throw OSCDecodeError.badAddress }
        let address = String(decoding: data[0..<end], as: UTF8.self)
        var result: Int32 = 0
        guard let message = lo_message_deserialise(UnsafeMutableRawPointer(mutating: data.baseAddress), data.count, &result) else {
            throw OSCDecodeError.malformed(code: result)
        }
        defer { lo_message_free(message) }
        let count = Int(lo_message_get_argc(message))
        guard count > 0 else { return OSCMessage(address) }
        let types = Array(String(cString: lo_message_get_types(message)).utf8)
        let argv = lo_message_get_argv(message)!
        var arguments: [OSCValue] = []
        arguments.reserveCapacity(count)
        for i in 0..<min(count, types.count) {
            switch types[i] {
            // Types without data: liblo gives them no argument pointer.
            case UInt8(ascii: "T"): arguments.append(.true)
            case UInt8(ascii: "F"): arguments.append(.false)
            case UInt8(ascii: "N"): arguments.append(.nil)
            case UInt8(ascii: "I"): arguments.append(.infinitum)
            default:
                guard let arg = argv[i] else { throw OSCDecodeError.malformed(code: 9912) }
                arguments.append(value(tag: types[i], arg))
            }
        }
        return OSCMessage(address, arguments)
    }

    static func value(tag: UInt8, _ arg: UnsafeMutablePointer<lo_arg>) -> OSCValue {
        let raw = UnsafeRawPointer(arg)
        switch tag {
        case UInt8(ascii: "i"): return .int32(arg.pointee.i)
        case UInt8(ascii: "h"): return .int64(arg.pointee.h)
        case UInt8(ascii: "f"): return .float(arg.pointee.f)
        case UInt8(ascii: "d"): return .double(arg.pointee.d)
        case UInt8(ascii: "s"): return .string(String(cString: raw.assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "S"): return .symbol(String(cString: raw.assumingMemoryBound(to: CChar.self)))
        case UInt8(ascii: "c"): return .char(UInt8(truncatingIfNeeded: arg.pointee.i))
        case UInt8(ascii: "m"): return .midi(UInt32(bitPattern: arg.pointee.i))
        case UInt8(ascii: "t"): return .timetag(OSCTimetag(seconds: arg.pointee.t.sec, fraction: arg.pointee.t.frac))
        case UInt8(ascii: "b"):
            let size = Int(lo_blob_datasize(UnsafeMutableRawPointer(arg)))
            let bytes = lo_blob_dataptr(UnsafeMutableRawPointer(arg)).map { Data(bytes: $0, count: size) } ?? Data()
            return .blob(bytes)
        default: return .nil
        }
    }

    /// Encode a message with liblo.
    public static func encode(_ message: OSCMessage) -> [UInt8] {
        let m = lo_message_new()!
        defer { lo_message_free(m) }
        for argument in message.arguments {
            switch argument {
            case .int32(let v): lo_message_add_int32(m, v)
            case .int64(let v): lo_message_add_int64(m, v)
            case .float(let v): lo_message_add_float(m, v)
            case .double(let v): lo_message_add_double(m, v)
            case .string(let s): lo_message_add_string(m, s)
            case .symbol(let s): lo_message_add_symbol(m, s)
            case .char(let c): lo_message_add_char(m, CChar(bitPattern: c))
            case .true: lo_message_add_true(m)
            case .false: lo_message_add_false(m)
            case .nil: lo_message_add_nil(m)
            case .infinitum: lo_message_add_infinitum(m)
            case .timetag(let t): lo_message_add_timetag(m, lo_timetag(sec: t.seconds, frac: t.fraction))
            case .midi(let v):
                var bytes: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                lo_message_add_midi(m, &bytes)
            case .blob(let data):
                let blob = data.withUnsafeBytes { lo_blob_new(Int32($0.count), $0.baseAddress) }
                lo_message_add_blob(m, blob)
                lo_blob_free(blob)
            }
        }
        var size = 0
        let length = lo_message_length(m, message.address)
        var bytes = [UInt8](repeating: 0, count: length)
        bytes.withUnsafeMutableBytes { _ = lo_message_serialise(m, message.address, $0.baseAddress, &size) }
        return bytes
    }

    /// A bundle of messages under one time tag (liblo's bundle serialiser).
    public static func encodeBundle(_ messages: [OSCMessage], timetag: OSCTimetag) -> [UInt8] {
        let bundle = lo_bundle_new(lo_timetag(sec: timetag.seconds, frac: timetag.fraction))!
        defer { lo_bundle_free_recursive(bundle) }
        for message in messages {
            let encoded = encode(message)
            var result: Int32 = 0
            let m = encoded.withUnsafeBytes { lo_message_deserialise(UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count, &result) }
            lo_bundle_add_message(bundle, message.address, m)
        }
        var size = 0
        let length = lo_bundle_length(bundle)
        var bytes = [UInt8](repeating: 0, count: length)
        bytes.withUnsafeMutableBytes { _ = lo_bundle_serialise(bundle, $0.baseAddress, &size) }
        return bytes
    }

    /// liblo's error codes (lo_errors.h), in words.
    static func describe(_ code: Int32) -> String {
        switch code {
        case 9901: "no such path"
        case 9902: "no type tag string"
        case 9903: "unknown protocol"
        case 9904: "no such port"
        case 9905: "too big"
        case 9906: "interrupted"
        case 9907: "allocation failed"
        case 9908: "invalid address"
        case 9909: "invalid type tag string"
        case 9910: "bad type"
        case 9911: "size mismatch"
        case 9912: "invalid argument data"
        case 9913: "string not terminated"
        case 9914: "bad padding"
        case 9915: "invalid bundle"
        case 9916: "invalid time tag"
        default: "unknown"
        }
    }
}
