@testable import EntrainEngine
import XCTest

/// The state space passes by the tempi outside the range once their mass has left: a range
/// that widens must still let the filter reach those tempi, and one that narrows must empty them.
final class BeatStateSpaceRangeTests: XCTestCase {
    static let frameRate = 48_000.0 / 256  // two hops of 128 at 48 kHz, as live

    /// Steps `seconds` of a click every `interval` frames (0.9 on it, 0.02 elsewhere); the BPM followed.
    func follow(_ space: inout BeatStateSpace, interval: Int, seconds: Double, from start: inout Int) -> Double {
        for _ in 0..<Int(seconds * Self.frameRate) {
            space.step(start % interval == 0 ? 0.9 : 0.02)
            start += 1
        }
        return space.bpm(ofTempo: space.tempo)
    }

    func testATempoLetIntoTheRangeIsFollowedAndOneLetOutIsLeft() {
        var space = BeatStateSpace(frameRate: Self.frameRate)
        defer { space.deallocate() }
        let strength = BeatFilterTracker.hintStrength
        var frame = 0
        // Clicks at 150 BPM (75 frames) with the range ending at 120: the filter holds half of it.
        space.setTempi(minimum: 60, maximum: 120, prefer: 100, hintStrength: strength)
        space.reset()
        let held = follow(&space, interval: 75, seconds: 10, from: &frame)
        XCTAssertEqual(held, 75, accuracy: 2, "150 BPM out of range: followed at half")
        // The range opens to 200 with the hint at 150: the tempi that rested take mass again.
        space.setTempi(minimum: 60, maximum: 200, prefer: 150, hintStrength: strength)
        let opened = follow(&space, interval: 75, seconds: 15, from: &frame)
        XCTAssertEqual(opened, 150, accuracy: 3, "the range opened: followed at its own tempo")
        // It closes again: the mass at 150 leaves within a beat, the filter goes back to half.
        space.setTempi(minimum: 60, maximum: 120, prefer: 100, hintStrength: strength)
        let closed = follow(&space, interval: 75, seconds: 10, from: &frame)
        XCTAssertEqual(closed, 75, accuracy: 2, "the range closed: half again")
        print("range tests: followed \(held), \(opened), \(closed) BPM")
    }
}
