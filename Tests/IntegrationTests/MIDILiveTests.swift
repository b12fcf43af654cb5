import BeatLab
import Foundation
import TestSupport
import XCTest

/// MIDI clock and beat notes from drums played into beat_in, recorded by a JACK MIDI client.
final class MIDILiveTests: LiveClientTestCase {
    func testDrumsAt120BPMGiveFortyEightClocksASecondAndNotesOnTheBeatFrames() throws {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        let drums = try JackPlayer(server: server.name, samples: item.samples, name: "drums")
        try drums.connect(to: "entrain:beat_in")
        drums.play()
        while !drums.isFinished { usleep(50_000) }
        usleep(2_000_000)  // the phrase grid takes over
        stopClient(client)

        let events = midi.events
        let rate = Double(server.sampleRate)
        let drumsStart = UInt32(try XCTUnwrap(drums.startFrame))
        let drumsEnd = drumsStart + UInt32(item.samples.count)
        // Before the drums the phrase grid runs the clock (Start); when they end the clock stops
        // after two quarters and the phrase grid's next beat continues it.
        let transport = events.filter { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }
        XCTAssertEqual(transport.map(\.bytes[0]), [0xFA, 0xFC, 0xFB], "Start, Stop, Continue")
        XCTAssertGreaterThan(transport[1].frame, drumsEnd - UInt32(rate), "the Stop comes when the drums end")
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        let afterDrums = clocks.filter { $0 > drumsEnd + UInt32(rate) }.count
        XCTAssertGreaterThan(afterDrums, 10, "the clock goes on after the drums")
        // While the drums play (from 5 s in, the tracker locked): the detected beats.
        let beatNotes = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 && $0.bytes[2] > 0 }
            .map(\.frame).filter { $0 >= drumsStart + UInt32(5 * rate) && $0 < drumsEnd }
        XCTAssertGreaterThan(beatNotes.count, 20, "a note per beat over \(item.duration) s")
        let from = beatNotes.first!, to = beatNotes.last!
        let inside = clocks.filter { $0 >= from && $0 < to }
        let perSecond = Double(inside.count) / (Double(to - from) / rate)
        XCTAssertEqual(perSecond, 48, accuracy: 0.5, "clocks per second at 120 BPM")
        let clockFrames = Set(clocks)
        XCTAssertTrue(beatNotes.allSatisfy(clockFrames.contains), "notes on the clock's beat frames")
        var quarters: [Int] = []
        for (a, b) in zip(beatNotes, beatNotes.dropFirst()) { quarters.append(clocks.filter { $0 >= a && $0 < b }.count) }
        XCTAssertGreaterThanOrEqual(Double(quarters.filter { $0 == 24 }.count), 0.9 * Double(quarters.count), "24 clocks per quarter: \(quarters)")
        // Beat notes 0.5 s apart (the tracker's grid), onset notes on the kicks and snares too.
        let gaps = zip(beatNotes, beatNotes.dropFirst()).map { Double($1 - $0) / rate }.sorted()
        XCTAssertEqual(gaps[gaps.count / 2], 0.5, accuracy: 0.005, "median beat interval")
        XCTAssertGreaterThan(events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 38 }.count, 20, "onset notes")
        XCTAssertEqual(events.filter { $0.bytes.first == 0x99 }.count, events.filter { $0.bytes.first == 0x89 }.count, "every note ends")
        print(String(format: "live MIDI: %.2f clocks/s over %.1f s, %d beat notes, quarters with 24 clocks %d of %d",
                     perSecond, Double(to - from) / rate, beatNotes.count, quarters.filter { $0 == 24 }.count, quarters.count))
    }

    /// Nothing on beat_in: the clock runs on the ambient engine's own beat (100 BPM here), its
    /// beats on the epoch-counted grid the drums play on.
    func testWithoutBeatsThePhraseGridRunsTheClock() throws {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock", "--set", "/ambient/drumEuclidBaseBPM=100"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        usleep(5_000_000)
        stopClient(client)
        let events = midi.events
        let rate = Double(server.sampleRate)
        XCTAssertEqual(events.first { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }?.bytes, [0xFA], "Start on the first grid beat")
        let beats = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 }.map(\.frame)
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertGreaterThanOrEqual(beats.count, 6)
        let gaps = zip(beats, beats.dropFirst()).map { Int($1) - Int($0) }
        XCTAssertTrue(gaps.allSatisfy { abs($0 - 28_800) <= 2 }, "a beat every 0.6 s: \(gaps)")
        var quarters: [Int] = []
        for (a, b) in zip(beats, beats.dropFirst()) { quarters.append(clocks.filter { $0 >= a && $0 < b }.count) }
        XCTAssertEqual(quarters, Array(repeating: 24, count: quarters.count), "24 clocks a beat")
        let perSecond = Double(quarters.reduce(0, +)) / (Double(beats.last! - beats.first!) / rate)
        XCTAssertEqual(perSecond, 40, accuracy: 0.1, "clocks per second at 100 BPM")
        print(String(format: "phrase-grid MIDI clock: %.2f clocks/s at 100 BPM", perSecond))
    }
}
