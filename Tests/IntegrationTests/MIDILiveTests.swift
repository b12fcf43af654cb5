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
        usleep(1_500_000)  // two quarters without beats: the clock stops
        stopClient(client)

        let events = midi.events
        let rate = Double(server.sampleRate)
        let starts = events.filter { $0.bytes == [0xFA] }
        XCTAssertEqual(starts.count, 1, "one Start when the tracker locks")
        XCTAssertEqual(events.filter { $0.bytes == [0xFC] }.count, 1, "one Stop after the drums end")
        let beatNotes = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 && $0.bytes[2] > 0 }.map(\.frame)
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertGreaterThan(beatNotes.count, 20, "a note per beat over \(item.duration) s")
        // Steady state: from the 5th beat to the last one.
        let from = beatNotes[4], to = beatNotes.last!
        let inside = clocks.filter { $0 >= from && $0 < to }
        let perSecond = Double(inside.count) / (Double(to - from) / rate)
        XCTAssertEqual(perSecond, 48, accuracy: 0.5, "clocks per second at 120 BPM")
        // Every beat note is on a clock's frame (the quarter's first clock), and each quarter has 24.
        let clockFrames = Set(clocks)
        XCTAssertTrue(beatNotes.allSatisfy(clockFrames.contains), "notes on the clock's beat frames")
        var quarters: [Int] = []
        for (a, b) in zip(beatNotes.dropFirst(4), beatNotes.dropFirst(5)) { quarters.append(clocks.filter { $0 >= a && $0 < b }.count) }
        XCTAssertGreaterThanOrEqual(Double(quarters.filter { $0 == 24 }.count), 0.9 * Double(quarters.count), "24 clocks per quarter: \(quarters)")
        // Beat notes 0.5 s apart (the tracker's grid), onset notes on the kicks and snares too.
        let gaps = zip(beatNotes.dropFirst(4), beatNotes.dropFirst(5)).map { Double($1 - $0) / rate }.sorted()
        XCTAssertEqual(gaps[gaps.count / 2], 0.5, accuracy: 0.005, "median beat interval")
        XCTAssertGreaterThan(events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 38 }.count, 20, "onset notes")
        XCTAssertEqual(events.filter { $0.bytes.first == 0x99 }.count, events.filter { $0.bytes.first == 0x89 }.count, "every note ends")
        print(String(format: "live MIDI: %.2f clocks/s over %.1f s, %d beat notes, quarters with 24 clocks %d of %d",
                     perSecond, Double(to - from) / rate, beatNotes.count, quarters.filter { $0 == 24 }.count, quarters.count))
    }
}
