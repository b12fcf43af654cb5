import BeatLab
import Foundation
import TestSupport
import XCTest

/// MIDI clock and beat notes from drums played into beat_in, recorded by a JACK MIDI client.
final class MIDILiveTests: LiveClientTestCase {
    func testDrumsAt120BPMGiveFortyEightClocksASecondAndNotesOnTheBeatFrames() throws {
        try judgeThroughXruns("live MIDI", drumsTake)
    }

    /// One take of the drums: what missed (a take whose quarters were mostly cut by lost cycles
    /// may be taken again) and the lost cycles.
    private func drumsTake() throws -> (miss: String?, xruns: Int) {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        let drums = try JackPlayer(server: server.name, samples: item.samples, name: "drums")
        try drums.connect(to: "entrain:beat_in")
        drums.play()
        try drums.waitUntilFinished()
        let rate = Double(server.sampleRate)
        let drumsStart = UInt32(try XCTUnwrap(drums.startFrame))
        let drumsEnd = UInt32(try XCTUnwrap(drums.jackFrame(ofSample: item.samples.count - 1))) + 1
        // The phrase grid takes over: 11 clocks and more a second after the drums.
        try waitFor("the clock after the drums", timeout: 20) {
            midi.events.filter { $0.bytes == [0xF8] && $0.frame > drumsEnd + UInt32(rate) }.count > 10
        }
        stopClient(client)

        let events = midi.events
        // Before the drums the phrase grid runs the clock (Start); it runs on through the drums
        // and after them without a Stop or Continue, until the client closes (Stop).
        let transport = events.filter { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }
        XCTAssertEqual(Array(transport.map(\.bytes[0]).dropFirst()), [0xFC], "no Stop or Continue until the Stop at exit")
        expectJoined(events)
        XCTAssertEqual(transport.last?.frame, events.last?.frame, "the Stop is among the last messages")
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        let afterDrums = clocks.filter { $0 > drumsEnd + UInt32(rate) }.count
        XCTAssertGreaterThan(afterDrums, 10, "the clock goes on after the drums")
        // While the drums play (from 5 s in, the tracker locked): the detected beats.
        let beatNotes = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 && $0.bytes[2] > 0 }
            .map(\.frame).filter { $0 >= drumsStart + UInt32(5 * rate) && $0 < drumsEnd }
        XCTAssertGreaterThan(beatNotes.count, 20, "a note per beat over \(item.duration) s")
        let from = beatNotes.first!, to = beatNotes.last!
        let quarters = MIDIClockQuarters(beats: beatNotes, clocks: clocks, timeline: midi.timeline)
        let perSecond = quarters.clocksPerSecond(sampleRate: rate)
        XCTAssertEqual(perSecond, 48, accuracy: 0.5, "clocks per second at 120 BPM")
        let clockFrames = Set(clocks)
        XCTAssertTrue(beatNotes.allSatisfy(clockFrames.contains), "notes on the clock's beat frames")
        quarters.assertTwentyFourInEach()
        // Beat notes 0.5 s apart (the tracker's grid), onset notes on the kicks and snares too.
        let gaps = zip(beatNotes, beatNotes.dropFirst()).map { Double($1 - $0) / rate }.sorted()
        XCTAssertEqual(gaps[gaps.count / 2], 0.5, accuracy: 0.005, "median beat interval")
        XCTAssertGreaterThan(events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 38 }.count, 20, "onset notes")
        // Every note ends, also one sounding when the client closed (unless the loaded machine
        // skipped one of the recorder's cycles: it then lacks those messages).
        let ons = events.filter { $0.bytes.first == 0x99 }.count, offs = events.filter { $0.bytes.first == 0x89 }.count
        let lost = midi.timeline.losses.count
        XCTAssertLessThanOrEqual(abs(ons - offs), 2 * lost, "every note ends, less what \(lost) lost cycle(s) held")
        print(String(format: "live MIDI: %.2f clocks/s over %.1f s, %d beat notes, quarters with 24 clocks %d of %d (%d heard whole)",
                     perSecond, Double(to - from) / rate, beatNotes.count, quarters.quarters.filter { $0.clocks == 24 }.count,
                     quarters.quarters.count, quarters.whole.count))
        return (quarters.fewHeardWhole, lost)
    }

    /// Drums (120 BPM), 14 s of silence, drums again, the phrase grid at 100 BPM between: a drum machine
    /// following the clock sees it run on. After the Start neither Stop nor Continue, 24 clocks in
    /// every beat, and around both hand-overs the clock's spacing stays between the two tempos'
    /// (less and more the flywheel's slew and a frame of rounding); back on the drums' beats.
    func testTheClockRunsOnWithoutABreakWhenTheDrumsStopAndComeBack() throws {
        try judgeThroughXruns("clock hand-over", handOverTake)
    }

    /// One take of the hand-over: where the clock lands on the phrase grid and back on the drums
    /// depends on the cycles the client lost (each moves its phase, which it then glides back: a
    /// client stalled for about eleven cycles read gaps of 27,360 for 28,800 once), so a miss with
    /// cycles lost is taken again.
    private func handOverTake() throws -> (miss: String?, xruns: Int) {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock", "--set", "/ambient/drumEuclidBaseBPM=100"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        let rate = Double(server.sampleRate)
        let part = Array(item.samples.prefix(Int(14 * rate))), silence = Int(14 * rate)
        let drums = try JackPlayer(server: server.name, samples: part + Array(repeating: 0, count: silence) + part, name: "drums")
        try drums.connect(to: "entrain:beat_in")
        drums.play()
        try drums.waitUntilFinished()
        stopClient(client)

        let events = midi.events
        // Where the parts went out (a cycle an xrun cost the player delays what follows).
        func played(_ sample: Int) throws -> UInt32 { UInt32(try XCTUnwrap(drums.jackFrame(ofSample: sample))) }
        let firstEnd = try played(part.count), secondStart = try played(part.count + silence)
        let secondEnd = try played(2 * part.count + silence - 1) + 1
        let lost = midi.timeline.lostJackFrames
        func heardWhole(_ a: UInt32, _ b: UInt32) -> Bool { !lost.contains { $0.lowerBound < Int(b) && $0.upperBound > Int(a) } }
        let transport = events.filter { $0.bytes.count == 1 && $0.bytes[0] != 0xF8 }.map(\.bytes[0])
        XCTAssertEqual(Array(transport.dropFirst()), [0xFC], "no Stop or Continue until the Stop at exit")
        expectJoined(events)
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        let beats = events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 && $0.bytes[2] > 0 }.map(\.frame)
        MIDIClockQuarters(beats: beats, clocks: clocks, timeline: midi.timeline).assertTwentyFour()

        // The spacing of the clocks from 2 s before to 8 s after each hand-over.
        let slew = 0.05
        let fast = 24_000.0 / 24, slow = 28_800.0 / 24
        for (name, from) in [("drums to grid", firstEnd), ("grid to drums", secondStart)] {
            let near = clocks.filter { $0 >= from - UInt32(2 * rate) && $0 < from + UInt32(8 * rate) }
            let gaps = zip(near, near.dropFirst()).filter { heardWhole($0, $1) }.map { Double($1 - $0) }
            let shortest = try XCTUnwrap(gaps.min()), longest = try XCTUnwrap(gaps.max())
            // The tracker's own beat at 120 BPM wanders by about a percent: 2 % of room.
            XCTAssertGreaterThanOrEqual(shortest, fast * (1 - slew - 0.02) - 1, "\(name): no burst")
            XCTAssertLessThanOrEqual(longest, slow * (1 + slew) + 1, "\(name): no gap")
            print(String(format: "MIDI clock hand-over, %@: clock spacing %.0f to %.0f frames (%.2f to %.2f ms)",
                         name, shortest, longest, shortest / rate * 1000, longest / rate * 1000))
        }
        // In the silence the clock glides onto the phrase grid's 100 BPM (28,800 frames a beat:
        // four beats for the tempo, up to ten for half a beat's phase)...
        let grid = beats.filter { $0 > firstEnd + UInt32(11 * rate) && $0 < secondStart }
        let gridGaps = zip(grid, grid.dropFirst()).filter { heardWhole($0, $1) }.map { Int($1) - Int($0) }
        XCTAssertFalse(gridGaps.isEmpty)
        // The clock catches up what is left of a phase step (a cycle lost to an xrun on either side,
        // the rest of the glide) at about 0.1 % a beat (29 frames here): a clean clone measured
        // 28,829 four times with no loss the recorder saw, so that much room.
        let room = 43
        if !gridGaps.allSatisfy({ abs($0 - 28_800) <= room }) { return ("on the phrase grid: \(gridGaps) (\(lost.count) cycle(s) lost)", lost.count) }
        // ...and back on the drums' beats (their annotated frames) for their last 4 seconds.
        let truth = try item.beats.filter { Int($0 * rate) < part.count }.map { try played(part.count + silence + Int($0 * rate)) }
            .filter { $0 > secondEnd - UInt32(4 * rate) && $0 < secondEnd }
        let late = truth.map { t in beats.map { abs(Double(Int($0) - Int(t))) }.min() ?? .infinity }
        guard let latest = late.max() else { return ("no beat notes in the drums' last 4 seconds", lost.count) }
        if latest / rate >= 0.03 { return ("back on the drums' beats: \(late)", lost.count) }
        print(String(format: "MIDI clock back on the drums: beat notes within %.1f ms of the annotated beats", latest / rate * 1000))
        return (nil, lost.count)
    }

    /// A device patched to midi_out after the Start (a drum machine connected late) gets Song
    /// Position and Continue at the next beat, just before its first clock (it got clocks only,
    /// and never started); the position counts the beats since the Start, in sixteenths.
    func testADeviceConnectedLateGetsSongPositionAndContinue() throws {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock"], recorder: rec)
        defer { stopClient(client) }
        let early = try JackMIDIRecorder(server: server.name, name: "early")
        try early.connect(from: "entrain:midi_out")
        func wait(_ body: () -> Bool) {
            let deadline = Date().addingTimeInterval(20)
            while !body() && Date() < deadline { usleep(20_000) }
        }
        let beatNote: (JackMIDIRecorder.Event) -> Bool = { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 && $0.bytes[2] > 0 }
        wait { early.events.filter(beatNote).count >= 3 }  // the clock runs (the phrase grid's beats)
        let late = try JackMIDIRecorder(server: server.name, name: "late")
        try late.connect(from: "entrain:midi_out")
        wait { late.events.contains { $0.bytes == [0xFB] } }
        let events = late.events
        let transport = events.filter { $0.bytes != [0xF8] && $0.bytes.first.map { $0 >= 0xF0 } == true }
        XCTAssertEqual(transport.first?.bytes.first, 0xF2, "Song Position first: \(transport.map(\.bytes))")
        XCTAssertEqual(transport.dropFirst().first?.bytes, [0xFB], "then Continue")
        guard let position = transport.first, position.bytes.count == 3, let resume = transport.dropFirst().first else { return }
        XCTAssertEqual(position.frame, resume.frame)
        let next = events.firstIndex { $0.frame == resume.frame && $0.bytes == [0xF8] }
        let continueAt = events.firstIndex { $0.bytes == [0xFB] }
        XCTAssertNotNil(next, "a clock on the Continue's frame")
        if let next, let continueAt { XCTAssertGreaterThan(next, continueAt, "the clock after the Continue") }
        // The early listener heard the Start (or, connected after the first beat itself, a Song
        // Position) and every beat since: the late one's position is that, plus those beats.
        let all = early.events
        let base: (frame: UInt32, sixteenths: Int)
        if let start = all.first(where: { $0.bytes == [0xFA] }) {
            base = (start.frame, 0)
        } else {
            let heard = try XCTUnwrap(all.first { $0.bytes.count == 3 && $0.bytes[0] == 0xF2 }, "the early listener heard a Start or a Song Position")
            base = (heard.frame, Int(heard.bytes[1]) | Int(heard.bytes[2]) << 7)
        }
        let beatsBefore = all.filter(beatNote).filter { $0.frame >= base.frame && $0.frame < resume.frame }.count
        XCTAssertEqual(Int(position.bytes[1]) | Int(position.bytes[2]) << 7, base.sixteenths + beatsBefore * 4, "sixteenths since the Start")
        XCTAssertFalse(all.contains { $0.bytes == [0xFC] }, "no Stop on the way")
    }

    /// Nothing on beat_in: the clock runs on the ambient engine's own beat (100 BPM here), its
    /// beats on the epoch-counted grid the drums play on.
    func testWithoutBeatsThePhraseGridRunsTheClock() throws {
        try judgeThroughXruns("phrase-grid MIDI clock", phraseGridTake)
    }

    /// One take of the clock on the phrase grid: a cycle the client alone lost (the recorder
    /// heard the quarter whole, the server counted an xrun) shifts the grid's beats after it
    /// (27,360 frames for 28,800 once in a clean clone), so such a miss is taken again.
    private func phraseGridTake() throws -> (miss: String?, xruns: Int) {
        let server = try self.server
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--midi-clock", "--set", "/ambient/drumEuclidBaseBPM=100"], recorder: rec)
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        func beatNotes() -> [UInt32] { midi.events.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x99 && $0.bytes[1] == 36 }.map(\.frame) }
        try waitFor("seven beats on the grid", timeout: 30) { beatNotes().count >= 7 }
        // Most quarters must be heard whole to be judged (a clean clone lost cycles in 2 of 6):
        // listen on, up to 30 beats, until they are.
        _ = waitUntil(timeout: 18) {
            let quarters = MIDIClockQuarters(beats: beatNotes(), clocks: midi.events.filter { $0.bytes == [0xF8] }.map(\.frame), timeline: midi.timeline)
            return Double(quarters.whole.count) >= 0.8 * Double(quarters.quarters.count)
        }
        stopClient(client)
        let events = midi.events
        let rate = Double(server.sampleRate)
        let xruns = midi.xruns + midi.timeline.losses.count
        expectJoined(events)
        let beats = beatNotes()
        let clocks = events.filter { $0.bytes == [0xF8] }.map(\.frame)
        XCTAssertGreaterThanOrEqual(beats.count, 6)
        let quarters = MIDIClockQuarters(beats: beats, clocks: clocks, timeline: midi.timeline)
        let gaps = quarters.whole.map { Int($0.to) - Int($0.from) }
        if !gaps.allSatisfy({ abs($0 - 28_800) <= 2 }) { return ("a beat every 0.6 s: \(gaps)", xruns) }
        quarters.assertTwentyFour()
        let perSecond = quarters.clocksPerSecond(sampleRate: rate)
        print(String(format: "phrase-grid MIDI clock: %.2f clocks/s at 100 BPM", perSecond))
        if abs(perSecond - 40) > 0.1 { return (String(format: "%.3f clocks per second at 100 BPM, not 40 ± 0.1", perSecond), xruns) }
        return (nil, xruns)
    }

    /// How the clock begins for the recorder: it connects a moment after the client starts, and
    /// when the first grid beat came before it (a loaded machine's clean clone once), it hears
    /// where the clock is (Song Position, then Continue), as any late listener; else Start.
    private func expectJoined(_ events: [JackMIDIRecorder.Event], file: StaticString = #filePath, line: UInt = #line) {
        let heard = events.filter { $0.bytes != [0xF8] && $0.bytes.first.map { $0 >= 0xF0 } == true }.map(\.bytes)
        if heard.first?.first == 0xF2 {
            XCTAssertEqual(heard.dropFirst().first, [0xFB], "joined late: Song Position, then Continue: \(heard)", file: file, line: line)
        } else {
            XCTAssertEqual(heard.first, [0xFA], "Start on the first grid beat: \(heard)", file: file, line: line)
        }
    }
}
