import EntrainControl
import Foundation
import TestSupport
import XCTest

/// `.sbg` files with the mix input, SBaGenX's mix effects, spinning noise and bells: parsed and
/// turned into the /mix, /spin and /bell addresses as SBaGen(X) plays them.
final class SBGSoundsImportTests: XCTestCase {
    func program(_ text: String) throws -> (SessionProgram, [SessionProblem], Session) {
        var (file, warnings) = try SBGParser.parse(text, file: "t.sbg")
        let session = try SBGTimeline.session(file, name: "t", warnings: &warnings, path: "t.sbg")
        return (SessionProgram(session, sampleRate: 1000), warnings, session)
    }

    func value(_ p: SessionProgram, _ address: String, at seconds: Double) -> Double? {
        p.state(at: Int64(seconds * 1000)).first { $0.address == address }?.value
    }

    /// SBaGenX's pan depth for a width in µs (1.5 × the width in samples at 44.1 kHz over 128), as
    /// our width with the same level difference at the extremes: 300 µs is about 0.48.
    static func width(_ microseconds: Double) -> Double {
        let s = microseconds * 1e-6 * 44_100 * 1.5 / 128
        return acos((1 - s) / (1 + s)) * 2 / .pi
    }

    func testMixTokensParseAsSBaGenXWritesThem() throws {
        let (file, _) = try SBGParser.parse("""
        a: mix/80 mixam:8 mixam:beat:m=pulse:f=0.2 mixpulse:10/50 mixspin:300+3/35 mixbeat:-6/45 bspin:250-0.5/30 bell2050/20
        12:00 a
        """, file: "t.sbg")
        XCTAssertEqual(file.toneSets["a"]?.slots, [
            .mix(amplitude: 80), .mixAM(rate: 8, floor: 0.45, pulse: false), .mixAM(rate: nil, floor: 0.2, pulse: true),
            .mixPulse(rate: 10, intensity: 50), .mixSpin(width: 300, rate: 3, intensity: 35), .mixBeat(beat: -6, intensity: 45),
            .spin(color: "brown", width: 250, rate: -0.5, amplitude: 30), .bell(frequency: 2050, amplitude: 20),
        ])
        for (token, message) in [("mixam:fast", "not a rate"), ("mixam:8:m=saw", "m= is cos or pulse"), ("mixbeat:6", "expected mixbeat:rate/intensity"),
                                 ("spin:300/20", "signed number"), ("wave07:200+4/10", "wave07 is not defined")] {
            XCTAssertThrowsError(try SBGParser.parse("a: \(token)\n12:00 a", file: "t.sbg"), token) { error in
                XCTAssertTrue("\(error)".contains(message), "\(token): \(error)")
            }
        }
    }

    /// A program with music under its tones: the mix level and every effect land on their
    /// addresses, glide between sets like SBaGen's voices, and mixam:beat follows the tone's beat.
    func testMixVoicesBecomeMixAddressesThatGlide() throws {
        let (p, _, session) = try program("""
        -SE -F 20000
        one: 200+10/30 mix/80 mixam:beat mixbeat:6/45 mixspin:300+3/35 mixpulse:8/50
        two: 200+4/30 mix/40 mixam:beat mixbeat:4/90 mixspin:300+3/70 mixpulse:8/100
        12:00 one
        12:01 two
        12:02 two
        """)
        XCTAssertEqual(value(p, "/mix/level", at: 30)!, 0.8, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/mix/am/rate", at: 30)!, 10, accuracy: 1e-9, "mixam:beat: the tone's beat")
        XCTAssertEqual(value(p, "/mix/am/depth", at: 30)!, 0.55, accuracy: 1e-9, "SBaGenX's default floor 0.45")
        XCTAssertEqual(value(p, "/mix/beat/depth", at: 30)!, 0.45, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/mix/beat/rate", at: 30)!, 6, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/mix/spin/width", at: 30)!, Self.width(300) * 0.35, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/mix/pulse/depth", at: 30)!, 0.5, accuracy: 1e-9)
        // Half-way through the 20 s window around 12:01, everything is half-way.
        XCTAssertEqual(value(p, "/mix/level", at: 60)!, 0.6, accuracy: 1e-6)
        XCTAssertEqual(value(p, "/mix/beat/rate", at: 60)!, 5, accuracy: 1e-6)
        XCTAssertEqual(value(p, "/mix/am/rate", at: 100)!, 4, accuracy: 1e-9)
        // The session writes them in its "set" blocks and reads them back.
        let json = SessionEncoder.json(session)
        XCTAssertTrue(json.contains("\"/mix/beat/depth\""), json)
        let (again, _) = try SessionDecoder.decode(json, file: "again.json")
        let back = SessionProgram(again, sampleRate: 1000)
        XCTAssertEqual(back.state(at: 30_000).first { $0.address == "/mix/level" }?.value ?? -1, 0.8, accuracy: 1e-6)
    }

    /// A file without `mix/` leaves the mix level alone: SBaGen then plays -m music at 100 %,
    /// and `render --mix` does the same.
    func testWithoutMixTheLevelIsLeftToTheCommandLine() throws {
        let (p, _, _) = try program("-SE\na: 200+10/30\n12:00 a\n12:01 a")
        XCTAssertNil(value(p, "/mix/level", at: 30))
    }

    /// Spinning noise becomes /spin; a bell rings once as each period that holds it begins (a
    /// 1 ms strike, then off again), with its pitch and level.
    func testSpinAndBellsLandOnTheirAddresses() throws {
        let (p, _, _) = try program("""
        -SE -F 0
        a: spin:300+0.2/40 bell+2050/20
        b: wspin:150-1/20 bell+800/10
        12:00 a
        12:01 b
        12:02 a
        12:03 a
        """)
        XCTAssertEqual(value(p, "/spin/level", at: 30)!, 0.4, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/spin/noise", at: 30), 1, "pink")
        XCTAssertEqual(value(p, "/spin/width", at: 30)!, Self.width(300), accuracy: 1e-9)
        XCTAssertEqual(value(p, "/spin/rate", at: 30)!, 0.2, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/spin/noise", at: 90), 0, "white")
        XCTAssertEqual(value(p, "/spin/rate", at: 90)!, -1, accuracy: 1e-9)
        let strikes = p.changes.filter { $0.address == "/bell/strike" && $0.value == 1 }.map { Double($0.frame) / 1000 }
        XCTAssertEqual(strikes, [0, 60, 120, 180].map { Double($0) }.filter { $0 < 180 }, "one strike per period")
        XCTAssertEqual(value(p, "/bell/frequency", at: 90), 800)
        XCTAssertEqual(value(p, "/bell/level", at: 90)!, 0.1, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/bell/strike", at: 30), 0, "off again after the strike")
    }
}
