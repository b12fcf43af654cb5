import EntrainControl
import Foundation
import XCTest

final class OSCCodecTests: XCTestCase {
    func testEveryTypeRoundTripsThroughLiblo() throws {
        let message = OSCMessage("/test/all", [.int32(-7), .int64(1 << 40), .float(1.5), .double(-2.25), .string("héllo"),
                                               .symbol("sym"), .true, .false, .nil, .infinitum, .blob(Data([1, 2, 3])),
                                               .timetag(OSCTimetag(seconds: 5, fraction: 6))])
        let decoded = try OSCCodec.decode(OSCCodec.encode(message))
        XCTAssertEqual(decoded, [TimedMessage(timetag: .immediately, message: message)])
    }

    func testBundlesKeepTheirTimeTagsIncludingNested() throws {
        let tag = OSCTimetag(unixTime: 1_800_000_000.25)
        let bytes = OSCCodec.encodeBundle([OSCMessage("/a", [.float(1)]), OSCMessage("/b")], timetag: tag)
        let decoded = try OSCCodec.decode(bytes)
        XCTAssertEqual(decoded.map(\.message.address), ["/a", "/b"])
        XCTAssertEqual(decoded.map(\.timetag), [tag, tag])
        XCTAssertEqual(decoded[0].timetag.unixTime, 1_800_000_000.25, accuracy: 1e-6)

        // A bundle inside a bundle: the inner element keeps the inner tag.
        let innerTag = OSCTimetag(unixTime: 1_800_000_001)
        let inner = OSCCodec.encodeBundle([OSCMessage("/c")], timetag: innerTag)
        var outer = Array("#bundle".utf8) + [0]
        outer += withUnsafeBytes(of: tag.seconds.bigEndian, Array.init) + withUnsafeBytes(of: tag.fraction.bigEndian, Array.init)
        outer += withUnsafeBytes(of: UInt32(inner.count).bigEndian, Array.init) + inner
        XCTAssertEqual(try OSCCodec.decode(outer), [TimedMessage(timetag: innerTag, message: OSCMessage("/c"))])
    }

    func testMalformedPacketsAreErrorsWithReasons() {
        let good = OSCCodec.encode(OSCMessage("/x", [.float(1), .string("abc")]))
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            (Array("hello".utf8), "not an OSC packet"),
            (Array("/abc".utf8), "malformed address"),
            (OSCCodec.encode(OSCMessage("/x\u{1B}[2J")), "malformed address"),  // a terminal escape
            (OSCCodec.encode(OSCMessage("/café")), "printable ASCII"),
            (Array(good.dropLast(4)), "malformed message"),
            (Array("#bundle".utf8) + [0, 0, 0], "malformed bundle"),
            (Array("#bundle".utf8) + [0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 99] + good, "malformed bundle"),
            ([UInt8](repeating: 0x2F, count: 70_000), "over the"),
        ]
        for (bytes, expected) in cases {
            XCTAssertThrowsError(try OSCCodec.decode(bytes)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should mention '\(expected)'")
            }
        }
    }

    /// 100,000 random and mutated packets: the decoder returns messages or an error, never crashes.
    func testFuzzedPacketsNeverCrashTheDecoder() {
        var random = SystemRandomNumberGenerator()
        let seeds = [OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(300), .float(2)])),
                     OSCCodec.encode(OSCMessage("/entrain/mode", [.string("isochronic")])),
                     OSCCodec.encodeBundle([OSCMessage("/entrain/beat", [.int32(4)]), OSCMessage("/ping")], timetag: .now())]
        var decoded = 0, rejected = 0
        for i in 0..<100_000 {
            var bytes: [UInt8]
            if i % 4 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = seeds[i % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    switch Int.random(in: 0...2, using: &random) {
                    case 0 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    case 1 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...min(8, bytes.count), using: &random))
                    default: bytes.append(contentsOf: (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) })
                    }
                }
            }
            if (try? OSCCodec.decode(bytes)) != nil { decoded += 1 } else { rejected += 1 }
        }
        // Reaching here is the test (a crash would end it); both outcomes must really occur.
        XCTAssertGreaterThan(rejected, 1000, "the mutations must produce malformed packets")
        XCTAssertGreaterThan(decoded, 1000, "and some that still decode")
    }
}
