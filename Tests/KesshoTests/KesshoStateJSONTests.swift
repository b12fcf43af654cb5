import XCTest
@testable import Kessho

/// JSON.stringify as JS writes it; expected strings worked by hand from ECMA-262 and checked in Node.
final class KesshoStateJSONTests: XCTestCase {
    func testNumbers() {
        let cases: [(Double, String)] = [
            (0.7, "0.7"), (6, "6"), (0.24000000000000002, "0.24000000000000002"), (1e21, "1e+21"),
            (1e-7, "1e-7"), (123e-20, "1.23e-18"), (1.5e300, "1.5e+300"), (-0.5, "-0.5"), (0.000001, "0.000001"),
            (1234567890123456774144, "1.2345678901234568e+21"), (100, "100"), (9007199254740992, "9007199254740992"),
            (-0.0, "0"), (.leastNonzeroMagnitude, "5e-324"), (0.1 + 0.2, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"),
            (123456.789e3, "123456789"), (1e20, "100000000000000000000"), (-63, "-63"), (0.0000035, "0.0000035"),
        ]
        for (v, s) in cases { XCTAssertEqual(KesshoJSNumber.format(v), s, "\(v)") }
        XCTAssertEqual(KesshoStateJSON.stringify(.number(.nan)), "null")
        XCTAssertEqual(KesshoStateJSON.stringify(.number(.infinity)), "null")
    }

    func testStringEscaping() {
        let s = "q\"\\\n\t\u{08}\u{0C}\r\u{01}\u{1F}\u{7F} é 𝄞 \u{2028}/"
        XCTAssertEqual(KesshoStateJSON.quote(s), "\"q\\\"\\\\\\n\\t\\b\\f\\r\\u0001\\u001f\u{7F} é 𝄞 \u{2028}/\"")
    }

    func testSmallState() {
        var s = KesshoState()
        s["b"] = .number(2); s["a"] = .string("x y"); s["c"] = .bool(true); s["d"] = .number(0.1)
        XCTAssertEqual(KesshoStateJSON.stringify(s), #"{"b":2,"a":"x y","c":true,"d":0.1}"#)
        s["a"] = .bool(false)  // replacing keeps position, like a JS object
        s["b"] = nil
        s["b"] = .number(1e-9)
        XCTAssertEqual(KesshoStateJSON.stringify(s), #"{"a":false,"c":true,"d":0.1,"b":1e-9}"#)
    }

    /// The web's JSON.stringify(DEFAULT_STATE) is 9 538 characters with this prefix.
    func testDefaultStateJSONShape() {
        let json = KesshoStateJSON.stringify(.defaults)
        XCTAssertEqual(json.utf16.count, 9538)
        XCTAssertTrue(json.hasPrefix(#"{"masterVolume":0.7,"synthLevel":0.6,"granularLevel":0.4,"#))
        XCTAssertTrue(json.contains(#""manualScale":"Major (Ionian)","#))
        XCTAssertTrue(json.hasSuffix(#""randomWalkSpeed":1}"#))
    }

    /// The first xmur3 output of the web's JSON.stringify(DEFAULT_STATE) is 2931442779. This pins every default and
    /// the key order (it is what fixed synthChordSequencerEnabled's position after the lead Euclid lanes).
    func testDefaultStateHashVector() {
        XCTAssertEqual(KesshoXmur3.hash(KesshoStateJSON.stringify(.defaults)), 2931442779)
    }
}
