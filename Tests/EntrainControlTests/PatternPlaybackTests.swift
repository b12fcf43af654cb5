import EntrainControl
import EntrainCore
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// AHAP patterns reaching the haptic port: by name from the pattern folder, and with a session
/// stage on the stage's exact frame.
final class PatternPlaybackTests: XCTestCase {
    let player = PatternPlayer(directories: [EntrainBinary.packageRoot.appendingPathComponent("patterns")])

    func renderHaptic(_ host: EngineHost, seconds: Double, before: ((Int64) throws -> Void)? = nil) rethrows -> [Float] {
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var out: [Float] = []
        for _ in 0..<Int(seconds * 48_000 / 256) {
            try before?(host.frame + 256)
            renderer.renderBlock(256) { io in out += UnsafeBufferPointer(start: io[.haptic], count: 256) }
        }
        return out
    }

    /// pulse-10hz: taps every 100 ms; the drive's bursts come 4,800 frames apart.
    func testNamedPatternPlays() throws {
        let host = try TestEngine.host(["/haptic/source/entrainment": "0"])
        try player.play("pulse-10hz", on: host, at: 0)
        let x = renderHaptic(host, seconds: 1)
        var onsets: [Int] = [], quiet = 1000
        for (i, v) in x.enumerated() {
            if abs(v) > 0.01 { if quiet > 1000 { onsets.append(i) }; quiet = 0 } else { quiet += 1 }
        }
        XCTAssertGreaterThanOrEqual(onsets.count, 9)
        for (a, b) in zip(onsets, onsets.dropFirst()) { XCTAssertEqual(b - a, 4800, accuracy: 48) }
    }

    /// Played "now" (a plain message, no time tag) after the engine has run longer than the
    /// pattern: it plays from the next period (it was timed from engine frame 0 and had ended).
    func testPatternPlayedNowAfterTheEngineHasRunPlaysWhole() throws {
        let host = try TestEngine.host()
        _ = renderHaptic(host, seconds: 6)  // longer than pulse-10hz's 5 s
        try player.play("pulse-10hz", on: host)
        let x = renderHaptic(host, seconds: 5.5)
        let taps = stride(from: 0, to: 50, by: 1).filter { Measure.peak(x[($0 * 4800)..<($0 * 4800 + 2400)]) > 0.05 }
        XCTAssertEqual(taps.count, 50, "every one of the 50 taps in 5 s")
        XCTAssertEqual(Measure.peak(x[(51 * 4800)...]), 0, "and then it ends")
    }

    func testNamesCannotLeaveThePatternFolder() throws {
        let host = try TestEngine.host()
        for name in ["../sessions/alpha-relaxation", "/etc/passwd", "", "no-such-pattern"] {
            XCTAssertThrowsError(try player.play(name, on: host), name)
        }
        XCTAssertFalse(host.isPlayingPattern)
    }

    /// A stage's `"haptic": {"pattern": …}` starts with the stage, to the frame.
    func testSessionStageStartsItsPattern() throws {
        let session = try SessionDecoder.decode("""
        { "stages": [ { "duration": 0.5 },
                      { "duration": 2, "haptic": { "pattern": "heartbeat" } } ] }
        """, file: "t.json").session
        let program = SessionProgram(session, sampleRate: 48_000)
        XCTAssertEqual(program.patternStarts.map { $0.frame }, [24_000])
        let host = try TestEngine.host(["/haptic/source/entrainment": "0", "/entrain/level": "0"])
        let sessionPlayer = SessionPlayer(program: program, startFrame: 0)
        sessionPlayer.patterns = player
        let x = try renderHaptic(host, seconds: 1) { try sessionPlayer.send(through: $0, to: host) }
        let first = try XCTUnwrap(x.firstIndex { abs($0) > 1e-6 })
        XCTAssertEqual(first, 24_000 + 71, accuracy: 2, "the stage's first frame, plus the look-ahead the sound waits too")
    }
}
