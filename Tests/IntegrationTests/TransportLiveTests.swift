import BeatLab
import Foundation
import TestSupport
import XCTest

/// JACK transport both ways against jackd2's own tools: the MIDI clock following a transport
/// that `jack_transport` rolls as master, and entrain as timebase master read by `jack_showtime`.
final class TransportLiveTests: LiveClientTestCase {
    func testTheMIDIClockFollowsJackTransportsTempoAndItsStartAndStop() throws {
        let server = try self.server
        guard let tool = try JackTransportTool(server: server.name) else { throw XCTSkip("jack_transport is not installed (jackd2)") }
        defer { tool.quit() }
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock", "--midi-clock-source", "transport"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        tool.send("tempo 90")
        tool.send("master")
        tool.send("locate 0")
        tool.send("play")
        usleep(4_000_000)
        tool.send("stop")
        usleep(500_000)
        stopClient(client)
        let events = midi.events
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertEqual(events.first { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }?.bytes, [0xFA], "Start when the transport rolls from 0")
        XCTAssertEqual(events.filter { $0.bytes == [0xFC] }.count, 1, "Stop when it stops")
        XCTAssertGreaterThan(clocks.count, 100)
        let beats = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 }.map(\.frame)
        XCTAssertGreaterThanOrEqual(beats.count, 5, "a note per transport beat")
        let gaps = zip(beats, beats.dropFirst()).map { Int($1) - Int($0) }.sorted()
        let median = gaps[gaps.count / 2]
        // jack_transport advances its ticks in whole numbers per period, so its beats run a little
        // longer than its nominal 90 BPM (32,000 frames): what it rolls is what the clock follows.
        XCTAssertEqual(Double(median), 32_000, accuracy: 32_000 * 0.03, "beats at about 90 BPM")
        // Within one of the master's ticks (1/1920 beat, 17 frames): it only says where a beat
        // falls inside a period to the tick.
        XCTAssertTrue(gaps.allSatisfy { abs($0 - median) <= median / 1920 + 1 }, "one note per beat, none twice: \(gaps)")
        var quarters: [Int] = []
        for (a, b) in zip(beats, beats.dropFirst()) { quarters.append(clocks.filter { $0 >= a && $0 < b }.count) }
        XCTAssertEqual(quarters, Array(repeating: 24, count: quarters.count), "24 clocks in every beat")
        let span = Double(beats.last! - beats.first!) / Double(server.sampleRate)
        let perSecond = Double(quarters.reduce(0, +)) / span
        XCTAssertEqual(perSecond, 24 * Double(server.sampleRate) / Double(median), accuracy: 0.05, "clocks per second: 24 per beat")
        print(String(format: "transport follower: %.2f clocks/s at 90 BPM over %.1f s", perSecond, span))
    }

    func testAsTimebaseMasterItCountsBarsAndBeatsAtTheTempoFoundOnBeatIn() throws {
        let server = try self.server
        guard let tool = try JackTransportTool(server: server.name) else { throw XCTSkip("jack_transport is not installed (jackd2)") }
        defer { tool.quit() }
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--timebase"], recorder: rec)
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-090", sampleRate: server.sampleRate))
        let drums = try JackPlayer(server: server.name, samples: item.samples, name: "drums")
        try drums.connect(to: "entrain:beat_in")
        drums.play()
        usleep(8_000_000)  // the tracker locks on 90 BPM
        tool.send("locate 0")
        tool.send("play")
        let positions = try JackTransportTool.positions(server: server.name, seconds: 3)
        tool.send("stop")
        stopClient(client)
        XCTAssertTrue(client.result().error.contains("timebase master"), client.result().error)
        guard positions.count > 10 else { throw XCTSkip("jack_showtime printed no positions") }
        let a = positions[positions.count / 4], b = positions.last!
        let bpm = (b.beats - a.beats) / (Double(b.frame - a.frame) / Double(server.sampleRate)) * 60
        XCTAssertEqual(bpm, 90, accuracy: 1.5, "bars and beats advance at the detected tempo")
        XCTAssertTrue(positions.allSatisfy { $0.beats >= 0 }, "bar and beat from 1")
        print(String(format: "timebase master: %.2f BPM read back by jack_showtime", bpm))
    }
}
