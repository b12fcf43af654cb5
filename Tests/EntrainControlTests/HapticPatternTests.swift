import EntrainControl
import EntrainFiles
import Foundation
import TestSupport
import XCTest

/// AHAP → per-millisecond intensity/sharpness: envelope shapes, controls, shipped files and errors.
final class HapticPatternTests: XCTestCase {
    /// A file with one entry a line: entry i is on line 3 + i, starting at column 5.
    func ahap(_ entries: String...) -> String {
        "{\n  \"Version\": 1,\n  \"Pattern\": [\n" + entries.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    func render(_ entries: String...) throws -> HapticPattern {
        let text = "{\n  \"Version\": 1,\n  \"Pattern\": [\n" + entries.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]\n}\n"
        let (pattern, warnings) = try HapticPattern.decode(text, file: "t.ahap")
        XCTAssertEqual(warnings, [], "no warnings expected")
        return pattern
    }

    /// "line:column E|W message" for every problem, or the thrown error's text when it is not ours.
    func problems(_ text: String) -> [String] {
        do { _ = try HapticPattern.decode(text, file: "t.ahap"); return [] } catch let e as AHAPLoadError {
            return e.problems.map { "\($0.line):\($0.column) \($0.isWarning ? "W" : "E") \($0.message)" }
        } catch { return ["\(error)"] }
    }

    func transient(_ time: Double, intensity: Double, sharpness: Double = 0.5, extra: String = "") -> String {
        "{ \"Event\": { \"Time\": \(time), \"EventType\": \"HapticTransient\", \"EventParameters\": [ "
            + "{ \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": \(intensity) }, "
            + "{ \"ParameterID\": \"HapticSharpness\", \"ParameterValue\": \(sharpness) }\(extra) ] } }"
    }

    func continuous(_ time: Double, _ duration: Double, intensity: Double, sharpness: Double = 0.5, extra: String = "") -> String {
        "{ \"Event\": { \"Time\": \(time), \"EventType\": \"HapticContinuous\", \"EventDuration\": \(duration), \"EventParameters\": [ "
            + "{ \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": \(intensity) }, "
            + "{ \"ParameterID\": \"HapticSharpness\", \"ParameterValue\": \(sharpness) }\(extra) ] } }"
    }

    func parameter(_ id: String, _ value: Double) -> String { ", { \"ParameterID\": \"\(id)\", \"ParameterValue\": \(value) }" }

    // MARK: envelopes

    /// Full strength on its own tick, then −40 dB over 20 ms (DecayTime 0): 0.1× after 10 ms.
    func testTransientPeaksOnItsTickAndDecays() throws {
        let p = try render(transient(0.5, intensity: 0.8, sharpness: 0.9))
        XCTAssertEqual(p.intensity.count, 520)
        XCTAssertEqual(p.duration, 0.52, accuracy: 1e-12)
        XCTAssertEqual(p.intensity[499], 0)
        XCTAssertEqual(p.intensity[500], 0.8, accuracy: 1e-6)
        XCTAssertEqual(p.intensity.firstIndex(of: p.intensity.max()!), 500)
        XCTAssertEqual(p.intensity[510], 0.08, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[519], 0.8 * pow(10, -1.9), accuracy: 1e-6)
        for n in 501..<520 { XCTAssertLessThan(p.intensity[n], p.intensity[n - 1], "tick \(n)") }
        XCTAssertEqual(p.sharpness[500], 0.9, accuracy: 1e-6)
        XCTAssertEqual(p.sharpness[499], 0.5, "no event: middle sharpness")

        // DecayTime 1 stretches the decay tenfold: 0.1× after 100 ms, gone after 200 ms.
        let long = try render(transient(0.5, intensity: 0.8, extra: parameter("DecayTime", 1)))
        XCTAssertEqual(long.intensity.count, 700)
        XCTAssertEqual(long.intensity[600], 0.08, accuracy: 1e-6)
    }

    /// AttackTime/ReleaseTime 2/3 → 1 ms × 1000^(2/3) = 100 ms linear ramps inside the duration.
    func testContinuousRampsAndSustain() throws {
        let third = 1.0 / 3
        let p = try render(continuous(1, 2, intensity: 0.8, sharpness: 0.2,
                                      extra: parameter("AttackTime", 2 * third) + parameter("ReleaseTime", 2 * third)))
        XCTAssertEqual(p.intensity.count, 3000, "ends with EventDuration")
        XCTAssertEqual(p.intensity[999], 0)
        XCTAssertEqual(p.intensity[1000], 0, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[1025], 0.2, accuracy: 1e-5)
        XCTAssertEqual(p.intensity[1050], 0.4, accuracy: 1e-5)
        XCTAssertEqual(p.intensity[1100], 0.8, accuracy: 1e-5)
        for n in stride(from: 1100, through: 2900, by: 100) { XCTAssertEqual(p.intensity[n], 0.8, accuracy: 1e-5, "sustain at \(n)") }
        XCTAssertEqual(p.intensity[2950], 0.4, accuracy: 1e-5)
        XCTAssertEqual(p.intensity[2999], 0.008, accuracy: 1e-5)
        XCTAssertEqual(p.sharpness[1500], 0.2, accuracy: 1e-6)

        // Sustained = 0: 10 ms attack (1/3), then a 100 ms linear decay (2/3) to nothing.
        let d = try render(continuous(0, 1, intensity: 1,
                                      extra: parameter("AttackTime", third) + parameter("DecayTime", 2 * third) + parameter("Sustained", 0)))
        XCTAssertEqual(d.intensity[5], 0.5, accuracy: 1e-5)
        XCTAssertEqual(d.intensity[10], 1, accuracy: 1e-5)
        XCTAssertEqual(d.intensity[60], 0.5, accuracy: 1e-5)
        XCTAssertEqual(d.intensity[110], 0, accuracy: 1e-5)
        XCTAssertEqual(d.intensity[500], 0)
        XCTAssertEqual(d.intensity.count, 1000)
    }

    /// Overlapping events: the louder one sets both intensity and sharpness.
    func testOverlapTakesTheLoudest() throws {
        let p = try render(transient(0.1, intensity: 0.4, sharpness: 0.9), transient(0.1, intensity: 0.7, sharpness: 0.1),
                           continuous(0, 1, intensity: 0.3, sharpness: 0.6))
        XCTAssertEqual(p.intensity[100], 0.7, accuracy: 1e-6)
        XCTAssertEqual(p.sharpness[100], 0.1, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[500], 0.3, accuracy: 1e-6)
        XCTAssertEqual(p.sharpness[500], 0.6, accuracy: 1e-6)
    }

    // MARK: controls

    /// A curve from 1 to 0 over 2 s starting at 1 s: ×0.75 at 1.5 s, ×0.5 at its midpoint, then holds 0.
    func testParameterCurveInterpolatesLinearlyAndHolds() throws {
        let curve = "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 1, \"ParameterCurveControlPoints\": "
            + "[ { \"Time\": 0, \"ParameterValue\": 1 }, { \"Time\": 2, \"ParameterValue\": 0 } ] } }"
        let p = try render(continuous(0, 4, intensity: 0.8), curve)
        XCTAssertEqual(p.intensity.count, 4000)
        XCTAssertEqual(p.intensity[900], 0.8, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[1500], 0.6, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[2000], 0.4, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[2500], 0.2, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[3000], 0, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[3500], 0, "holds the last value after the last point")
    }

    /// A step applies from its own tick on; a later step takes over from a curve.
    func testDynamicParameterSteps() throws {
        let half = "{ \"Parameter\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 1, \"ParameterValue\": 0.5 } }"
        let p = try render(continuous(0, 2, intensity: 0.6), half)
        XCTAssertEqual(p.intensity[500], 0.6, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[999], 0.6, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[1000], 0.3, accuracy: 1e-6)
        XCTAssertEqual(p.intensity[1500], 0.3, accuracy: 1e-6)

        let curve = "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": "
            + "[ { \"Time\": 0, \"ParameterValue\": 0 }, { \"Time\": 2, \"ParameterValue\": 1 } ] } }"
        let q = try render(continuous(0, 2, intensity: 1), curve, half)
        XCTAssertEqual(q.intensity[500], 0.25, accuracy: 1e-6)
        XCTAssertEqual(q.intensity[1500], 0.5, accuracy: 1e-6, "the step at 1 s replaced the curve")
    }

    /// Sharpness + control, clamped at both ends.
    func testSharpnessControlAddsAndClamps() throws {
        func step(_ t: Double, _ v: Double) -> String {
            "{ \"Parameter\": { \"ParameterID\": \"HapticSharpnessControl\", \"Time\": \(t), \"ParameterValue\": \(v) } }"
        }
        let p = try render(continuous(0, 3, intensity: 1, sharpness: 0.7), step(0, 0.2), step(1, 0.6), step(2, -1))
        XCTAssertEqual(p.sharpness[500], 0.9, accuracy: 1e-6)
        XCTAssertEqual(p.sharpness[1500], 1, "0.7 + 0.6 clamps to 1")
        XCTAssertEqual(p.sharpness[2500], 0, "0.7 − 1 clamps to 0")
        XCTAssertEqual(p.intensity[1500], 1, accuracy: 1e-6, "sharpness leaves intensity alone")
    }

    /// Time controls add to the event's 0…1 value: DecayTime 0 + 1 → the 200 ms decay.
    func testDecayTimeControlStretchesTransients() throws {
        let ctl = "{ \"Parameter\": { \"ParameterID\": \"HapticDecayTimeControl\", \"Time\": 0, \"ParameterValue\": 1 } }"
        let p = try render(transient(0.5, intensity: 1), ctl)
        XCTAssertEqual(p.intensity.count, 700)
        XCTAssertEqual(p.intensity[600], 0.1, accuracy: 1e-6)
    }

    // MARK: shipped files

    func testShippedPatternsDecodeWithTheirDurations() throws {
        let folder = EntrainBinary.packageRoot.appendingPathComponent("patterns")
        let expected: [String: Double] = ["heartbeat": 8, "wave": 10, "rain": 12, "pulse-10hz": 5]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ahap") }
        XCTAssertEqual(Set(files), Set(expected.keys.map { $0 + ".ahap" }), "README and this test list every file")
        var patterns: [String: HapticPattern] = [:]
        for file in files {
            let (pattern, warnings) = try HapticPattern.load(contentsOf: folder.appendingPathComponent(file))
            XCTAssertEqual(warnings, [], file)
            XCTAssertEqual(pattern.duration, expected[pattern.name] ?? -1, accuracy: 1e-9, file)
            XCTAssertEqual(pattern.sharpness.count, pattern.intensity.count)
            XCTAssertTrue(pattern.intensity.allSatisfy { $0 >= 0 && $0 <= 1 } && pattern.sharpness.allSatisfy { $0 >= 0 && $0 <= 1 }, file)
            patterns[pattern.name] = pattern
        }
        // Heartbeat: lub (1.0) on every second, dub (0.7) 300 ms later.
        let heart = try XCTUnwrap(patterns["heartbeat"])
        for k in 0..<8 {
            XCTAssertEqual(heart.intensity[k * 1000], 1, accuracy: 1e-6)
            XCTAssertEqual(heart.intensity[k * 1000 + 300], 0.7, accuracy: 1e-6)
        }
        // Pulse: 50 peaks, exactly 100 ticks apart.
        let pulse = try XCTUnwrap(patterns["pulse-10hz"])
        let peaks = (0..<pulse.intensity.count).filter { pulse.intensity[$0] == 1 }
        XCTAssertEqual(peaks, Array(stride(from: 0, to: 5000, by: 100)))
        // Wave: silent at the ends, full at 5 s, half at 2.5 s.
        let wave = try XCTUnwrap(patterns["wave"])
        XCTAssertEqual(wave.intensity[0], 0)
        XCTAssertEqual(wave.intensity[2500], 0.5, accuracy: 1e-6)
        XCTAssertEqual(wave.intensity[5000], 1, accuracy: 1e-6)
        XCTAssertEqual(wave.sharpness[5000], 0.6, accuracy: 1e-6)
        // Rain: many drops, none loud, of several sharpnesses.
        let rain = try XCTUnwrap(patterns["rain"])
        XCTAssertLessThanOrEqual(rain.intensity.max()!, 0.45 + 1e-6)
        XCTAssertGreaterThan(Set(rain.sharpness.map { ($0 * 10).rounded() }).count, 5)
    }

    // MARK: errors and warnings

    /// Each malformed file fails with the position of the offending value and a message naming the key.
    func testMalformedFilesFailWithPositions() {
        let cases: [(String, String)] = [
            (ahap("{ \"Event\": { \"Time\": \"abc\", \"EventType\": \"HapticTransient\" } }"),
             "4:26 E Time must be a number (seconds), got a string"),
            (ahap("{ \"Event\": { \"Time\": -0.5, \"EventType\": \"HapticTransient\" } }"),
             "4:26 E Time must not be negative, got -0.5"),
            (ahap("{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticContinuous\" } }"),
             "4:16 E a HapticContinuous event needs an EventDuration (seconds)"),
            (ahap("{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticTransiant\" } }"),
             "4:42 E EventType \"HapticTransiant\" is not one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom (did you mean \"HapticTransient\"?)"),
            (ahap("{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticTransient\", \"EventParameters\": [ { \"ParameterID\": \"HapticIntensty\", \"ParameterValue\": 1 } ] } }"),
             "4:99 E ParameterID \"HapticIntensty\" is not a Core Haptics parameter (did you mean \"HapticIntensity\"?)"),
            (ahap("{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\", \"EventParameters\": [ { \"ParameterID\": \"HapticIntensityControl\", \"ParameterValue\": 1 } ] } }"),
             "4:99 E ParameterID HapticIntensityControl is a dynamic control (for Parameter and ParameterCurve entries); events take HapticIntensity, HapticSharpness, …"),
            (ahap("{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ { \"Time\": 1, \"ParameterValue\": 1 }, { \"Time\": 0.5, \"ParameterValue\": 0 } ] } }"),
             "4:158 E control point Time 0.5 is earlier than the point before it (1); points must be in time order"),
            (ahap("{ \"Parameter\": { \"ParameterID\": \"HapticSharpnessControl\", \"Time\": 0, \"ParameterValue\": \"NaN\" } }"),
             "4:92 E ParameterValue must be a number, got a string"),
            (ahap("{ \"Event\": { \"Time\": 590, \"EventType\": \"HapticContinuous\", \"EventDuration\": 20 } }"),
             "4:26 E the event ends at 610 s; patterns may last at most 600 s (10 minutes)"),
            (ahap("{ \"Event\": { \"Time\": 1e999, \"EventType\": \"HapticTransient\" } }"),
             "4:31 E number out of range"),
            ("{\n  \"Version\": 1,\n  \"Pattern\": [ ]\n}", "3:14 E Pattern is empty: nothing to play"),
            ("{\n  \"Version\": 1,\n  \"Pattern\": [ { \"Event\": { \"Time\": 0, } } ]\n}", "3:40 E expected a \"key\" in quotes"),
            ("[1, 2]", "1:1 E an .ahap file is an object with \"Version\" and \"Pattern\", got an array"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(problems(text), [expected], text)
        }
    }

    func testSizeLimits() {
        let drop = "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\" } }"
        let many = ahap(Array(repeating: drop, count: 10_001).joined(separator: ",\n    "))
        XCTAssertEqual(problems(many), ["3:14 E Pattern holds 10001 entries and 0 control points; at most 10000 in all are read"])
        let buzz = "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 30 } }"
        let dense = ahap(Array(repeating: buzz, count: 201).joined(separator: ",\n    "))
        XCTAssertEqual(problems(dense), ["3:14 E the events add up to 6030 s of playing; at most 6000 s are rendered"])
        XCTAssertEqual(problems(ahap(Array(repeating: buzz, count: 200).joined(separator: ",\n    "))), [])
        let huge = ahap(drop) + String(repeating: " ", count: InputLimits.documentBytes)
        XCTAssertEqual(problems(huge), ["1:1 E too large: files of at most \(InputLimits.documentBytesText) are read"])
    }

    /// Every problem in one report, in file order, warnings included.
    func testSeveralProblemsAreAllReported() {
        let text = """
        {
          "Version": "one",
          "Patern": [],
          "Pattern": [
            { "Event": { "Time": 1, "EventType": "HapticContinuous", "EventDuration": -2 } },
            { "Event": { "Time": -1, "EventType": "Buzz" } },
            { "Parameter": { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 } },
            { "Event": { "Time": 0, "EventType": "HapticTransient" }, "Parameter": { "Time": 0 } }
          ]
        }
        """
        XCTAssertEqual(problems(text), [
            "2:14 E Version must be a number, got a string",
            "3:13 W the file: unknown key \"Patern\" (did you mean \"Pattern\"?); ignored",
            "5:79 E EventDuration must be greater than 0 seconds, got -2",
            "6:26 E Time must not be negative, got -1",
            "6:43 E EventType \"Buzz\" is not one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom",
            "7:20 W Parameter has no Time; 0 is used",
            "7:37 E ParameterID HapticIntensity is an event parameter (for EventParameters); here use a …Control ID",
            "8:5 E Pattern entry 4 holds Event and Parameter; each entry holds exactly one",
        ])
    }

    /// Core Haptics clamps; we clamp too and say where, and still play.
    func testClampingWarnsWithPosition() throws {
        let text = ahap(
            "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\", \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 1.5 } ] } }",
            "{ \"Event\": { \"Time\": 1, \"EventType\": \"HapticContinuous\", \"EventDuration\": 45, \"Colour\": \"red\" } }",
            "{ \"Event\": { \"Time\": 2, \"EventType\": \"AudioCustom\", \"EventWaveformPath\": \"a.wav\" } }")
        let (pattern, warnings) = try HapticPattern.decode(text, file: "t.ahap")
        XCTAssertEqual(warnings, [
            "t.ahap:4:136: warning: HapticIntensity 1.5 is outside 0…1; clamped to 1",
            "t.ahap:5:79: warning: EventDuration 45 s is longer than the 30 s a continuous event may last; cut to 30 s",
            "t.ahap:5:93: warning: Event: unknown key \"Colour\"; ignored",
            "t.ahap:6:42: warning: AudioCustom events are audio; entrain renders haptics only, so this one is ignored",
        ])
        XCTAssertEqual(pattern.intensity[0], 1)
        XCTAssertEqual(pattern.duration, 31, accuracy: 1e-12, "the continuous event was cut to 30 s")
    }

    func testErrorDescriptionReadsLikeACompilerMessage() {
        do {
            _ = try HapticPattern.decode(ahap("{ \"Event\": { \"Time\": \"abc\", \"EventType\": \"HapticTransient\" } }"), file: "patterns/x.ahap")
            XCTFail("should not decode")
        } catch {
            XCTAssertEqual("\(error)", "patterns/x.ahap:4:26: error: Time must be a number (seconds), got a string")
        }
    }
}
