import XCTest
@testable import Kessho

/// Values computed by running the web's own rng.ts.
final class KesshoRandomTests: XCTestCase {
    func testXmur3Test() {
        var g = KesshoXmur3("test")
        XCTAssertEqual([g.next(), g.next(), g.next()], [2974430664, 1305844984, 734072121])
    }

    func testMulberry32Seed12345() {
        var m = KesshoMulberry32(seed: 12345)
        let expected = [0.9797282678, 0.3067522645, 0.4842054215, 0.8179344125, 0.5094283693]
        for e in expected { XCTAssertEqual(m.next(), e, accuracy: 5e-11) }
    }

    func testCreateRngEngineSeed() {
        var r = KesshoRandom(seed: "2026-02-02T14|E_ROOT")
        let expected = [0.7206928034, 0.2963716493, 0.1089675303, 0.8512276309, 0.5471963070]
        for e in expected { XCTAssertEqual(r.next(), e, accuracy: 5e-11) }
    }

    func testDisplaySeed() {
        XCTAssertEqual(KesshoSeed.displaySeed(bucket: "2026-02-02T14"), 785722735)
        XCTAssertEqual(KesshoXmur3.hash("2026-02-02T14|E_ROOT|E_ROOT"), 785722735)
    }

    /// Outputs are k/2^32 exactly, so we can also compare the integer numerators (hand-run in Node).
    func testMulberryIsExactMultipleOf2pow32() {
        var m = KesshoMulberry32(seed: 12345)
        let v = m.next() * 4294967296
        XCTAssertEqual(v, v.rounded())
    }

    /// UTF-16 code units, not bytes or characters: "é" is one unit, "𝄞" is two (a surrogate pair).
    func testXmur3UsesUTF16CodeUnits() {
        XCTAssertEqual(KesshoXmur3.hash("é"), Self.jsXmur3("é".utf16.map { $0 }))
        XCTAssertEqual(KesshoXmur3.hash("𝄞"), Self.jsXmur3([0xD834, 0xDD1E]))
        XCTAssertNotEqual(KesshoXmur3.hash("é"), Self.jsXmur3(Array("é".utf8).map { UInt16($0) }))
    }

    /// xmur3 written out plainly over explicit code units, as an independent check.
    static func jsXmur3(_ units: [UInt16]) -> UInt32 {
        var h = UInt32(1779033703) ^ UInt32(units.count)
        for c in units { h = (h ^ UInt32(c)) &* 3432918353; h = h << 13 | h >> 19 }
        h = (h ^ h >> 16) &* 2246822507; h = (h ^ h >> 13) &* 3266489909
        return h ^ h >> 16
    }

    func testHelpers() {
        var r = KesshoRandom(seed: "2026-02-02T14|E_ROOT")
        // 0.7206928034 → int(3,4) = floor(0.72·2)+3 = 4; 0.2963716493 → int(0,1) = 0
        XCTAssertEqual(r.int(3, 4), 4)
        XCTAssertEqual(r.int(0, 1), 0)
        // 0.1089675303 → pick of 2 = index 0
        XCTAssertEqual(r.pick([-12, 12]), -12)
        // 0.8512276309 → float(-8, 8) = -8 + 0.8512…·16
        XCTAssertEqual(r.float(-8, 8), -8 + 0.8512276309 * 16, accuracy: 1e-8)
    }

    func testSeedStrings() {
        let date = Date(timeIntervalSince1970: 1_770_040_800)  // 2026-02-02T14:00:00Z
        XCTAssertEqual(KesshoSeed.bucket(date, window: .hour), "2026-02-02T14")
        XCTAssertEqual(KesshoSeed.bucket(date, window: .day), "2026-02-02")
        XCTAssertEqual(KesshoSeed.bucket(Date(timeIntervalSince1970: 0), window: .hour), "1970-01-01T00")
        XCTAssertEqual(KesshoSeed.engineSeed(bucket: "2026-02-02T14"), "2026-02-02T14|E_ROOT")
        XCTAssertEqual(KesshoSeed.phraseSeed(bucket: "2026-02-02", stateJSON: "{\"a\":1}", phraseIndex: 110627551),
                       "2026-02-02|{\"a\":1}|E_ROOT|phrase:110627551")
        XCTAssertEqual(KesshoSeed.drumLaneSeed(lane: 2), "drum-euclid-2-2")
    }

    func testPhraseIndex() {
        XCTAssertEqual(KesshoPhrase.index(unixSeconds: 1_770_040_800), 110_627_550)
        XCTAssertEqual(KesshoPhrase.index(unixSeconds: 1_770_040_815.999), 110_627_550)
        XCTAssertEqual(KesshoPhrase.index(unixSeconds: 1_770_040_816), 110_627_551)
        XCTAssertEqual(KesshoPhrase.nextBoundary(unixSeconds: 1_770_040_801), 1_770_040_816)
        XCTAssertEqual([8, 24, 32, 40, 64].map { KesshoPhrase.phrasesPerChord(chordRate: $0) }, [1, 2, 2, 3, 4])
        XCTAssertEqual(KesshoPhrase.phrasesPerChord(chordRate: 56), 4)  // 3.5 rounds up like Math.round
    }
}
