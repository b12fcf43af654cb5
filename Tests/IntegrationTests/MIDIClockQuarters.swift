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

    /// Beats a quarter spans: one, or more when a lost cycle took a beat note with it (judged by
    /// its length against the median quarter's; only where a cycle was lost).
    func beatsSpanned(_ quarter: Quarter) -> Int {
        let lengths = quarters.map { Int($0.to) - Int($0.from) }.sorted()
        guard quarter.lostCycles > 0, let median = lengths.isEmpty ? nil : lengths[lengths.count / 2], median > 0 else { return 1 }
        return max(1, Int((Double(Int(quarter.to) - Int(quarter.from)) / Double(median)).rounded()))
    }

    /// 24 clocks in every beat heard whole; a lost cycle takes at most its own clock away (and
    /// the beat note with it, when it fell there: 48 less one over two beats), never adds one.
    /// And most quarters heard whole (`fewHeardWhole`).
    func assertTwentyFour(file: StaticString = #filePath, line: UInt = #line) {
        assertTwentyFourInEach(file: file, line: line)
        if let miss = fewHeardWhole { XCTFail(miss, file: file, line: line) }
    }

    func assertTwentyFourInEach(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(quarters.allSatisfy { q in (24 * beatsSpanned(q) - q.lostCycles)...(24 * beatsSpanned(q)) ~= q.clocks },
                      "24 clocks per quarter: \(counts)", file: file, line: line)
    }

    /// What is wrong when fewer than 80 % of the quarters were heard whole (lost cycles excuse
    /// the others, so most must be whole for the count to mean anything), or nil. An xrun storm
    /// does it: a take that may be taken again (`judgeThroughXruns`).
    var fewHeardWhole: String? {
        Double(whole.count) >= 0.8 * Double(quarters.count) ? nil : "most quarters heard whole: \(counts)"
    }

    private var counts: [String] { quarters.map { $0.lostCycles == 0 ? "\($0.clocks)" : "\($0.clocks)(\($0.lostCycles) lost)" } }
}
