import BeatLab
import Foundation
import TestSupport
import XCTest

/// Pixel outputs from the live client on a private dummy jackd to DDP displays written in the
/// tests (real UDP on loopback): exact colours at a steady rate, black on panic and at exit, the
/// flash safety measured on what arrives, the spectrum of a tone and beat flashes from a song.
final class PixelLiveTests: LiveClientTestCase {
    /// A rig file of DDP strips to `displays` (name, pixels, receiver), each at `fps`.
    func rig(_ outputs: [(String, Int, DDPTestReceiver)], fps: Int = 50) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder("pixels")
        let items = outputs.map { #"{"name": "\#($0.0)", "pixels": \#($0.1), "protocol": "ddp", "target": "127.0.0.1:\#($0.2.port)", "fps": \#(fps)}"# }
        return (folder, try folder.write("[" + items.joined(separator: ",\n") + "]", "rig.json").path)
    }

    func testAStripShowsItsColoursExactlyAtASteadyRateAndGoesBlackOnPanicAndAtExit() throws {
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let (folder, path) = try rig([("strip", 300, display)])
        defer { folder.remove() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--pixels", path, "--set", "/pixels/strip/effect=solid", "--set", "/pixels/strip/palette=white",
                                                 "--set", "/pixels/strip/brightness=0.4"], recorder: rec)
        XCTAssertTrue(display.wait(timeout: 20) { $0.last.map { $0.bytes == [UInt8](repeating: 102, count: 900) } ?? false }, "every channel at 0.4 of 255")
        display.clear()
        try waitFor("two seconds of frames", timeout: 10) { (display.received.frames.last?.arrival ?? 0) - (display.received.frames.first?.arrival ?? 0) >= 2 }
        let steady = display.received
        XCTAssertEqual(steady.invalid, 0)
        XCTAssertEqual(steady.frames.framesPerSecond, 50, accuracy: 2, "frames per second")
        XCTAssertTrue(steady.frames.allSatisfy { $0.dataType == 0x0B && $0.bytes.count == 900 })
        XCTAssertTrue(zip(steady.frames, steady.frames.dropFirst()).allSatisfy { $1.sequence == ($0.sequence == 15 ? 1 : $0.sequence + 1) },
                      "sequence numbers 1…15, none lost")
        let gaps = zip(steady.frames, steady.frames.dropFirst()).map { ($1.arrival - $0.arrival) * 1000 }.sorted()
        print(String(format: "pixels live: %.2f frames/s over %d frames of 300 pixels, gap median %.2f ms, p99 %.2f ms",
                     steady.frames.framesPerSecond, steady.frames.count, gaps[gaps.count / 2], gaps[gaps.count * 99 / 100]))

        osc.send("/pixels/strip/palette", [.string("fire")])
        XCTAssertEqual(osc.request("/pixels/strip/palette")?.arguments.first, .string("fire"))
        XCTAssertTrue(display.wait { $0.last.map { Array($0.bytes.prefix(3)) == [102, 0, 0] } ?? false }, "fire starts red")
        XCTAssertNotNil(osc.request("/pixels/strip/brightness", [.float(2)], reply: "/error"), "brightness is 0-1")

        // After the panic by the kernel's stamp of each frame's arrival (as in DMXLiveTests).
        let sent = arrivalClockNow()
        osc.send("/panic", [.int32(1)])
        XCTAssertTrue(display.wait { $0.filter { $0.arrival > sent }.count >= 6 })
        let after = display.received.frames.filter { $0.arrival > sent }
        let lit = after.prefix { $0.bytes.contains { $0 != 0 } }.count
        XCTAssertLessThanOrEqual(lit, 1, "black from the next frame after /panic")
        XCTAssertTrue(after.dropFirst(lit).allSatisfy { $0.bytes.allSatisfy { $0 == 0 } }, "black while the panic holds")
        osc.send("/resume", [])
        XCTAssertTrue(display.wait { $0.last.map { $0.bytes[0] == 102 } ?? false }, "lit again after /resume")
        stopClient(client)
        XCTAssertEqual(display.received.frames.last?.bytes.max(), 0, "black frames at exit")
    }

    /// A session's stages set the strip (white, then fire two seconds later): the second stage's
    /// colours arrive two seconds after the first's, as the sound's stages are heard — not when
    /// the transport sends the stage, a second ahead.
    func testASessionsStagesChangeTheStripWhenTheyAreHeard() throws {
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let (folder, path) = try rig([("strip", 30, display)])
        defer { folder.remove() }
        let session = try folder.write("""
            {"name": "lights", "stages": [
              {"duration": 2, "voices": [{"carrier": 200, "beat": 4}],
               "set": {"/pixels/strip/effect": "solid", "/pixels/strip/palette": "white", "/pixels/strip/brightness": 0.4}},
              {"duration": 20, "set": {"/pixels/strip/palette": "fire"}}]}
            """, "lights.json")
        let rec = try recorder(channels: 1, seconds: 0.2)
        let client = try startClient(["--pixels", path, "--session", session.path], recorder: rec)
        let white = [UInt8](repeating: 102, count: 90)
        XCTAssertTrue(display.wait(timeout: 20) { $0.last.map { Array($0.bytes.prefix(3)) == [102, 0, 0] } ?? false }, "stage 2's fire arrives")
        stopClient(client)
        let frames = display.received.frames
        let first = try XCTUnwrap(frames.first { $0.bytes == white }, "stage 1's white arrived").arrival
        let second = try XCTUnwrap(frames.first { Array($0.bytes.prefix(3)) == [102, 0, 0] }).arrival
        print(String(format: "pixels from a session: stage 2 shown %.3f s after stage 1 (its start is 2 s later; %d xruns)", second - first, rec.xruns))
        // One frame is 20 ms; an xrun of the dummy server only delays the engine's clock.
        XCTAssertGreaterThan(second - first, 2 - 0.045, "not before stage 2 is heard")
        XCTAssertLessThan(second - first, 2 + 0.045 + 0.05 * Double(rec.xruns), "within a frame of it (less the xruns' delay)")
    }

    func testArtNetCarriesAStripAcrossUniversesOfWholePixels() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let folder = try TemporaryFolder("pixels-artnet")
        defer { folder.remove() }
        let rig = try folder.write(#"[{"name": "eaves", "pixels": 200, "protocol": "artnet", "target": "127.0.0.1:\#(receiver.port)", "universe": 5, "order": "grb", "fps": 40}]"#, "rig.json")
        let rec = try recorder(channels: 1, seconds: 0.2)
        let client = try startClient(["--pixels", rig.path, "--set", "/pixels/eaves/effect=solid", "--set", "/pixels/eaves/palette=fire",
                                      "--set", "/pixels/eaves/brightness=0.4"], recorder: rec)
        // Fire starts red: in grb order green (0) comes first, then red (102).
        XCTAssertTrue(receiver.wait(timeout: 20) { frames in
            frames.last { $0.universe == 5 }.map { Array($0.channels.prefix(3)) == [0, 102, 0] } ?? false
                && frames.last { $0.universe == 6 }.map { $0.channels.contains { $0 > 0 } } ?? false
        }, "both universes carry the strip, its first pixel red")
        receiver.clear()
        try waitFor("two seconds of frames", timeout: 10) { receiver.received.frames.filter { $0.universe == 5 }.count >= 81 }
        stopClient(client)
        let frames = receiver.received.frames
        let first = frames.filter { $0.universe == 5 }, second = frames.filter { $0.universe == 6 }
        XCTAssertEqual(first.first?.channels.count, 510, "170 RGB pixels in the first universe")
        XCTAssertEqual(second.first?.channels.count, 90, "the other 30 in the next")
        let rate = framesPerSecond(arrivals: first.map(\.arrival))
        print(String(format: "pixels over Art-Net: %.1f frames/s in universes 5 and 6", rate))
        XCTAssertEqual(rate, 40, accuracy: 2)
        XCTAssertEqual(frames.last?.channels.max(), 0, "black at exit")
    }

    /// /led/manual switched between 0 and 1 ten times a second (a manual source passes while
    /// disarmed: it is taken as steady), shown by the pacer effect on every pixel.
    func flicker(_ osc: OSCTestClient, seconds: Double) {
        let start = Date()
        var on = false
        while Date().timeIntervalSince(start) < seconds {
            on.toggle()
            osc.send("/led/manual", [.float(on ? 1 : 0), .float(0)])
            usleep(50_000)
        }
    }

    /// 120 pixels showing the flickering led port (pacer) for 4 s, armed or not: what arrived.
    func flickeringStrip(armed: Bool) throws -> (frames: [ReceivedDDP], measure: FlashMeasure) {
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let (folder, path) = try rig([("strip", 120, display)])
        defer { folder.remove() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--pixels", path, "--set", "/pixels/strip/effect=pacer", "--set", "/pixels/strip/brightness=1",
                                                 "--set", "/led/source/manual=1", "--set", "/led/source/entrainment=0"] + (armed ? ["--arm-strobe"] : []),
                                                recorder: rec)
        XCTAssertTrue(display.wait(timeout: 20) { !$0.isEmpty }, "frames arrive")
        display.clear()
        flicker(osc, seconds: 4)
        stopClient(client)
        let frames = display.received.frames
        return (frames, FlashMeasure(frames: frames.map { ($0.arrival, $0.bytes) }, pixels: 120, channels: 3))
    }

    func testDisarmedNoPixelFlashesMoreThanThreeTimesASecond() throws {
        let (frames, measure) = try flickeringStrip(armed: false)
        print("pixels disarmed: \(frames.count) frames, most transitions of a channel in one second \(measure.mostPerSecond)")
        XCTAssertGreaterThan(frames.count, 150)
        XCTAssertGreaterThan(measure.total, 0, "the light moved")
        XCTAssertLessThanOrEqual(measure.mostPerSecond, 6, "no more than 3 flashes a second on any channel of any pixel")
    }

    func testArmedAtMostAQuarterOfAnOutputsPixelsFlashAtOnce() throws {
        let (frames, measure) = try flickeringStrip(armed: true)
        let start = try XCTUnwrap(frames.first).arrival
        let counts = frames.filter { $0.arrival > start + 1 }.map { measure.flashing(at: $0.arrival) }
        print("pixels armed: \(frames.count) frames, most pixels flashing at once \(counts.max() ?? 0) of 120")
        XCTAssertLessThanOrEqual(counts.max() ?? 0, 30, "a quarter of 120 pixels at most")
        XCTAssertGreaterThanOrEqual(counts.max() ?? 0, 20, "armed, the quarter does flash")
    }

    func testATonesBandLightsItsSegmentOfTheSpectrumAndSilenceGoesDark() throws {
        let server = try self.server
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let (folder, path) = try rig([("bars", 160, display)])
        defer { folder.remove() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let listener = try OSCTestClient(targetPort: 9)
        let client = try startClient(["--pixels", path, "--set", "/pixels/bars/effect=bands", "--set", "/pixels/bars/palette=white",
                                      "--set", "/pixels/bars/brightness=1", "--osc-feedback", "127.0.0.1:\(listener.port)"], recorder: rec)
        let rate = Double(server.sampleRate)
        let tone = (0..<Int(3 * rate)).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / rate)) }
        XCTAssertTrue(display.wait(timeout: 20) { !$0.isEmpty }, "frames arrive")
        let player = try JackPlayer(server: server.name, samples: tone, name: "tone")
        try player.connect(to: "entrain:beat_in")
        player.play()
        try player.waitForSample(Int(2 * rate))
        let frame = try XCTUnwrap(display.received.frames.last)
        // Ten pixels a band: each band's brightness.
        let bands = (0..<16).map { b in Int(frame.bytes[b * 30]) }
        print("pixels bands for 1 kHz: \(bands)")
        XCTAssertEqual(bands.firstIndex(of: bands.max()!), 8, "1 kHz lies in band 8 (894-1280 Hz)")
        XCTAssertGreaterThan(bands[8], 120)
        XCTAssertLessThan(bands[0], 40, "the lowest band stays dark")
        let messages = listener.receiveTimed(timeout: 0.5).map { $0.message.message }.filter { $0.address == "/beat/bands" }
        XCTAssertEqual(messages.last?.arguments.count, 16, "/beat/bands: 16 levels")
        try player.waitUntilFinished()
        XCTAssertTrue(display.wait(timeout: 3) { $0.last.map { $0.bytes.max() == 0 } ?? false }, "silence: the spectrum falls to black")
        stopClient(client)
    }

    /// The beat effect's flashes against the beats the analysis stamped (OSC time tags): each
    /// flash begins within one frame of its beat (after the sound's own latency).
    func testBeatFlashesLandWithinAFrameOfTheDetectedBeats() throws {
        try judgeThroughXruns("pixel beat flashes", beatFlashTake)
    }

    func beatFlashTake() throws -> (String?, Int) {
        let server = try self.server
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let (folder, path) = try rig([("strip", 300, display)])
        defer { folder.remove() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let listener = try OSCTestClient(targetPort: 9)
        let client = try startClient(["--pixels", path, "--set", "/pixels/strip/effect=beat", "--set", "/pixels/strip/palette=white",
                                      "--set", "/pixels/strip/brightness=1", "--osc-feedback", "127.0.0.1:\(listener.port)"], recorder: rec)
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        let drums = try JackPlayer(server: server.name, samples: Array(item.samples.prefix(12 * server.sampleRate)), name: "drums")
        try drums.connect(to: "entrain:beat_in")
        guard display.wait(timeout: 20, until: { !$0.isEmpty }) else { return ("no frames arrived", rec.xruns) }
        display.clear()
        drums.play()
        let received = listener.receiveTimed(timeout: 40, until: { drums.isFinished }, linger: 0.3)
        stopClient(client)
        let beats = received.filter { $0.message.message.address == "/beat/beat" }.map { $0.message.timetag.unixTime }
        let frames = display.received.frames
        // A flash begins where the strip jumps up by more than half.
        let rises = zip(frames, frames.dropFirst()).filter { Int($1.bytes[0]) - Int($0.bytes[0]) > 128 }.map { $1.unixArrival }
        let delays = beats.compactMap { beat in rises.first { $0 > beat - 0.03 && $0 < beat + 0.2 }.map { ($0 - beat) * 1000 } }.sorted()
        guard beats.count >= 8, delays.count >= beats.count * 9 / 10 else {
            return ("\(beats.count) beats, \(delays.count) matched by a flash, \(rises.count) flashes", rec.xruns + drums.timeline.losses.count)
        }
        let median = delays[delays.count / 2], p10 = delays[delays.count / 10], p90 = delays[delays.count * 9 / 10]
        print(String(format: "pixel beat flashes: %d beats, flash after the beat's time tag: median %.1f ms, p10 %.1f, p90 %.1f (one frame: 20 ms)",
                     beats.count, median, p10, p90))
        let frameMs = 20.0
        var miss: String?
        if median < -3 || median > 45 { miss = String(format: "median delay %.1f ms, not within the sound's latency and a frame", median) }
        if p90 - p10 > frameMs + 8 { miss = String(format: "flashes spread %.1f ms (p10-p90), more than a frame", p90 - p10) }
        return (miss, rec.xruns + drums.timeline.losses.count)
    }
}
