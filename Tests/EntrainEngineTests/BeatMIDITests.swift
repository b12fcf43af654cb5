import EntrainCore
@testable import EntrainEngine
import XCTest

/// MIDI clock and notes from beat events, period by period as the process thread drives it.
final class BeatMIDITests: XCTestCase {
    struct Sent { var frame: Int64; var bytes: [UInt8] }

    /// Runs `periods` periods of `frames` frames; `events(start, end)` gives each period's events.
    func run(_ midi: inout BeatMIDI, periods: Int, frames: Int = 256, events: (Int64, Int64) -> [BeatEvent]) -> [Sent] {
        var sent: [Sent] = []
        for p in 0..<periods {
            let start = Int64(p * frames)
            midi.begin(start: start, frames: frames)
            for e in events(start, start + Int64(frames)) { midi.take(e) }
            midi.finish()
            var last: Int32 = -1
            for k in 0..<midi.outCount {
                let m = midi.out[k]
                XCTAssertGreaterThanOrEqual(m.offset, last, "in time order")
                XCTAssertTrue((0..<Int32(frames)).contains(m.offset), "inside the period")
                last = m.offset
                sent.append(Sent(frame: start + Int64(m.offset), bytes: Array([m.b0, m.b1, m.b2].prefix(Int(m.size)))))
            }
        }
        return sent
    }

    /// Beats every 24,000 frames (120 BPM at 48 kHz) from frame 1,000 up to `until`.
    func beats(_ start: Int64, _ end: Int64, until: Int64 = .max, first: Int32 = 1) -> [BeatEvent] {
        stride(from: Int64(1000), to: min(end, until), by: 24_000).filter { $0 >= start }.map {
            BeatEvent(kind: .beat, frame: $0, strength: 0.8, count: first + Int32(($0 - 1000) / 24_000), bpm: 120, framesToNext: 24_000)
        }
    }

    func testTwentyFourClocksPerBeatOnTheBeatsGridStartedAndStopped() {
        var midi = BeatMIDI(settings: BeatMIDISettings(), sampleRate: 48_000)
        let until: Int64 = 1000 + 24_000 * 10
        let sent = run(&midi, periods: 2000, events: { self.beats($0, $1, until: until) })
        let clocks = sent.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertEqual(clocks.count, 240, "24 per beat for 10 beats")
        for (k, frame) in clocks.enumerated() { XCTAssertEqual(frame, 1000 + Int64((Double(k) * 1000).rounded()), "clock \(k) on the grid") }
        XCTAssertEqual(sent.first?.bytes, [0xFA], "Start first, on the first beat's frame")
        XCTAssertEqual(sent.first?.frame, 1000)
        let notes = sent.filter { $0.bytes.first == 0x99 }
        XCTAssertEqual(notes.map(\.frame), (0..<10).map { 1000 + Int64($0) * 24_000 }, "a note on each beat's frame")
        XCTAssertEqual(notes.first?.bytes, [0x99, 36, 102], "channel 10, note 36, velocity from the strength")
        let offs = sent.filter { $0.bytes.first == 0x89 }
        XCTAssertEqual(offs.map(\.frame), notes.map { $0.frame + 2400 }, "each note ends 50 ms later")
        let stop = sent.filter { $0.bytes == [0xFC] }
        XCTAssertEqual(stop.count, 1, "Stop once the beats stop")
        XCTAssertEqual(stop.first?.frame, 1000 + 9 * 24_000 + 48_000, "two quarters after the last beat")
    }

    /// A beat 256 frames early (an xrun cost beat_in a period, or the tracker moved its phase):
    /// the old quarter's last clock is hurried onto the beat's frame, not lost, so a receiver
    /// counting clocks stays on the bar.
    func testAnEarlyBeatHurriesTheOldQuartersClocksInsteadOfDroppingThem() {
        var midi = BeatMIDI(settings: BeatMIDISettings(), sampleRate: 48_000)
        let early: [Int64] = [1000, 25_000, 49_000 - 1_024, 73_000 - 1_024, 97_000 - 1_024]
        let events = early.enumerated().map { k, frame in
            BeatEvent(kind: .beat, frame: frame, strength: 0.8, count: Int32(k + 1), bpm: 120, framesToNext: 24_000)
        }
        let sent = run(&midi, periods: 600, events: { start, end in events.filter { $0.frame >= start && $0.frame < end } })
        let clocks = sent.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertEqual(clocks.count, 5 * 24, "24 clocks for each of the five beats (three came early)")
        XCTAssertEqual(clocks.filter { $0 == early[1] }.count, 1, "a beat on time: its own first clock only")
        XCTAssertEqual(clocks.filter { $0 == early[2] }.count, 2, "the late clock and the new quarter's first share the early beat's frame")
        XCTAssertEqual(sent.filter { $0.bytes == [0xFA] }.count, 1, "one Start: the early beat continues the count")
    }

    /// Closing mid-note: the last period stops the clock and ends the sounding notes at its first frame.
    func testEndingStopsTheClockAndEndsEveryNote() {
        var midi = BeatMIDI(settings: BeatMIDISettings(), sampleRate: 48_000)
        let beat = BeatEvent(kind: .beat, frame: 100, strength: 1, count: 1, bpm: 120, framesToNext: 24_000)
        let onset = BeatEvent(kind: .onset, frame: 150, strength: 0.5, count: 0)
        let sent = run(&midi, periods: 1, events: { _, _ in [beat, onset] })
        XCTAssertEqual(sent.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 }.count, 2, "two notes sounding")
        midi.begin(start: 256, frames: 256)
        midi.closeDown()
        midi.finish()
        let last = (0..<midi.outCount).map { midi.out[$0] }
        XCTAssertEqual(last.map(\.b0), [0xFC, 0x89, 0x89], "Stop, then both note-offs")
        XCTAssertTrue(last.allSatisfy { $0.offset == 0 }, "at the period's first frame")
        XCTAssertEqual(Set(last.dropFirst().map(\.b1)), [36, 38], "the beat's and the onset's notes")
        midi.begin(start: 512, frames: 256)
        midi.finish()
        XCTAssertEqual(midi.outCount, 0, "nothing after it")
    }

    func testAnEarlyBeatDropsTheOldQuarterAndABeatAfterAStopContinues() {
        var midi = BeatMIDI(settings: BeatMIDISettings(), sampleRate: 48_000)
        let events: [BeatEvent] = [
            BeatEvent(kind: .beat, frame: 0, strength: 1, count: 1, bpm: 120, framesToNext: 24_000),
            BeatEvent(kind: .beat, frame: 12_000, strength: 1, count: 2, bpm: 120, framesToNext: 24_000),  // moved phase
            BeatEvent(kind: .beat, frame: 200_000, strength: 1, count: 9, bpm: 120, framesToNext: 24_000),  // after a stop
            BeatEvent(kind: .onset, frame: 200_100, strength: 0, count: 0),
        ]
        let sent = run(&midi, periods: 1000, events: { s, e in events.filter { $0.frame >= s && $0.frame < e } })
        let clocksBeforeSecond = sent.filter { $0.bytes == [0xF8] && $0.frame < 12_000 }
        XCTAssertEqual(clocksBeforeSecond.count, 12, "half a quarter, then the new beat restarts the count")
        let realtime = sent.filter { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }.map(\.bytes[0])
        XCTAssertEqual(realtime, [0xFA, 0xFC, 0xFB, 0xFC], "start, stop, continue, stop")
        XCTAssertTrue(sent.contains { $0.frame == 200_100 && $0.bytes == [0x99, 38, 1] }, "an onset note, velocity from its strength")
    }

    func testNoNotesWhenTurnedOffAndOnsetsBeforeThePeriodLandOnItsFirstFrame() {
        var settings = BeatMIDISettings()
        settings.beatNote = nil
        settings.channel = 0
        var midi = BeatMIDI(settings: settings, sampleRate: 48_000)
        let sent = run(&midi, periods: 4, events: { s, _ in
            s == 512 ? [BeatEvent(kind: .beat, frame: 600, strength: 1, count: 1, bpm: 120, framesToNext: 24_000),
                        BeatEvent(kind: .onset, frame: 300, strength: 1)] : []
        })
        XCTAssertFalse(sent.contains { $0.bytes.first == 0x90 && $0.bytes[1] == 36 }, "no beat notes")
        XCTAssertTrue(sent.contains { $0.frame == 512 && $0.bytes == [0x90, 38, 127] }, "a back-dated onset plays at the period's start")
    }
}
