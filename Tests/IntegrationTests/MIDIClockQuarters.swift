import TestSupport
import XCTest

/// The MIDI clock between beat notes, judged around the cycles an xrun cost the MIDI recorder
/// (whose messages it lacks): shared by the MIDI clock and JACK transport tests.
struct MIDIClockQuarters {
    struct Quarter {
        var from: UInt32, to: UInt32
        var clocks: Int
        /// Cycles the recorder lost between the two beat notes.
        var lostCycles: Int
    }

    let quarters: [Quarter]

    init(beats: [UInt32], clocks: [UInt32], timeline: CycleTimeline) {
        let lost = timeline.lostJackFrames
        // A quarter's clocks run from just after its beat up to the next beat's frame, inclusive:
        // the next quarter's first clock sits on that frame, and so do the old quarter's last
        // clocks when the beat came early (hurried there, never dropped).
        quarters = zip(beats, beats.dropFirst()).map { a, b in
            Quarter(from: a, to: b, clocks: clocks.filter { $0 > a && $0 <= b }.count,
                    lostCycles: lost.filter { $0.lowerBound < Int(b) && $0.upperBound > Int(a) }.count)
        }
    }

    /// The quarters the recorder heard whole.
    var whole: [Quarter] { quarters.filter { $0.lostCycles == 0 } }

    /// Clocks per second over the whole quarters.
    func clocksPerSecond(sampleRate: Double) -> Double {
        Double(whole.reduce(0) { $0 + $1.clocks }) / (Double(whole.reduce(0) { $0 + Int($1.to - $1.from) }) / sampleRate)
    }

    /// 24 clocks in every beat heard whole; a lost cycle takes at most its own clock away, never adds one.
    func assertTwentyFour(file: StaticString = #filePath, line: UInt = #line) {
        let counts = quarters.map { $0.lostCycles == 0 ? "\($0.clocks)" : "\($0.clocks)(\($0.lostCycles) lost)" }
        XCTAssertTrue(quarters.allSatisfy { (24 - $0.lostCycles)...24 ~= $0.clocks }, "24 clocks per quarter: \(counts)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(whole.count), 0.8 * Double(quarters.count), "most quarters heard whole: \(counts)",
                                    file: file, line: line)
    }
}
