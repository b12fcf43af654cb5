import BeatLab
import Foundation
import TestSupport
import XCTest

/// The run-time half of the real-time proof: an LD_PRELOAD probe counts malloc/free and
/// pthread_mutex_lock calls on the thread that calls jack_port_get_buffer (the process thread)
/// while the client starts, plays, analyses drums on beat_in, gets patched and fades out.
/// Every count must be zero.
final class RealtimeProbeTests: LiveClientTestCase {
    func buildProbe() throws -> URL {
        let source = EntrainBinary.packageRoot.appendingPathComponent("Tests/RealtimeProbe/realtime_probe.c")
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("realtime-probe-\(getpid()).so")
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-shared", "-fPIC", "-O2", "-o", library.path, source.path, "-ldl", "-lpthread"]
        try cc.run()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw XCTSkip("cannot build the probe with cc") }
        return library
    }

    func testProcessThreadNeitherAllocatesNorLocks() throws {
        let probe = try buildProbe()
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rt-report-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: probe); try? FileManager.default.removeItem(at: report) }

        let rec = try recorder(seconds: 2)
        // The ambient engine too, with a preset whose sliders walk (settings events at 10 Hz), with the
        // lead and drums busy (note and hit events, FM and drum voices starting on the process thread).
        let ambient = ["--ambient-preset", Fixtures.shippedAmbientPresets.appendingPathComponent("Full_Tide.json").path]
        // DMX (the light rendered for it and queued every period) and MIDI clock and notes too.
        let dmx = try DMXTestReceiver(.artNet)
        defer { dmx.stop() }
        // Pixels too: the band levels and the pixel tap every period.
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let pixelRig = FileManager.default.temporaryDirectory.appendingPathComponent("rt-pixels-\(getpid()).json")
        try #"[{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "127.0.0.1:\#(display.port)"}]"#.write(to: pixelRig, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pixelRig) }
        let rig = ["--artnet", "127.0.0.1:\(dmx.port)", "--dmx-map", "1=led,2=haptic_intensity:16", "--midi-clock",
                   "--pixels", pixelRig.path, "--set", "/pixels/strip/effect=bands"]
        // The mix input with every effect (the drums play into it too), spinning noise, and the end cue on the stop.
        let mixAndSounds = ["--set", "/mix/level=0.5", "--set", "/mix/am/depth=0.3", "--set", "/mix/pulse/depth=0.3",
                            "--set", "/mix/spin/width=0.5", "--set", "/mix/beat/depth=0.5", "--set", "/spin/level=0.2", "--set", "/cue/end=0.3"]
        let client = try startClient(["--noise", "pink", "--noise-level", "0.3", "--fade-in", "0.5", "--fade-out", "0.5",
                                      "--set", "/entrain/voice/2/level=0.5", "--mode", "isochronic"] + ambient + rig + mixAndSounds,
                                     environment: ["LD_PRELOAD": probe.path, "ENTRAIN_RT_PROBE_OUT": report.path],
                                     recorder: rec)
        // Drums into beat_in: FFTW, onsets, beats and the event ring all run on the process thread.
        let server = try self.server
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        let drums = try JackPlayer(server: server.name, samples: Array(item.samples.prefix(6 * server.sampleRate)), name: "drums")
        try drums.connect(to: "entrain:beat_in")
        try drums.connect(to: "entrain:mix_L")
        try drums.connect(to: "entrain:mix_R")
        drums.play()
        let midi = try JackMIDIRecorder(server: server.name)
        try midi.connect(from: "entrain:midi_out")
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])  // graph changes while running
        _ = try rec.record()
        try rec.connect(["entrain:ambient_L", "entrain:ambient_R"])
        _ = try rec.record()
        _ = try rec.record()
        _ = try rec.record()
        stopClient(client)  // the stop command and the fade-out run on the process thread too
        try assertClean(report)
        XCTAssertGreaterThan(dmx.received.frames.count, 100, "DMX was sent meanwhile")
        XCTAssertGreaterThan(display.received.frames.count, 100, "pixels too")
        XCTAssertGreaterThan(midi.events.filter { $0.bytes == [0xF8] }.count, 100, "and MIDI clock")
    }

    /// Hosted LV2 plugins on every bus (swh, mda, LSP with its atom ports; mda's EPiano playing the
    /// ambient chords; a gain on the haptic drive), changed over OSC while playing: a control, a
    /// bypass, a plugin added and one removed. Our side adds nothing.
    func testProcessThreadStaysCleanWithAnInsertChainRunning() throws {
        let probe = try buildProbe()
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rt-report-fx-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: probe); try? FileManager.default.removeItem(at: report) }
        let rec = try recorder(seconds: 1)
        let port = freePort()
        let ambient = ["--ambient-preset", Fixtures.shippedAmbientPresets.appendingPathComponent("Full_Tide.json").path]
        let client = try startClient(["--osc-port", "\(port)", "--insert", "entrainment:http://plugin.org.uk/swh-plugins/amp",
                                      "--insert", "entrainment:http://plugin.org.uk/swh-plugins/lowpass_iir",
                                      "--insert", "ambient:http://drobilla.net/plugins/mda/Limiter",
                                      "--insert", "ambient:http://lsp-plug.in/plugins/lv2/compressor_stereo",
                                      "--insert", "ambient:http://drobilla.net/plugins/mda/EPiano",
                                      "--insert", "haptic:http://plugin.org.uk/swh-plugins/amp"] + ambient,
                                     environment: ["LD_PRELOAD": probe.path, "ENTRAIN_RT_PROBE_OUT": report.path],
                                     recorder: rec)
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil && Date() < deadline {}
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        _ = try rec.record()
        osc.send("/fx/entrainment/1/gain", [.float(-6)])
        osc.send("/fx/entrainment/2/bypass", [.int32(1)])
        XCTAssertEqual(osc.request("/fx/ambient/add", [.string("http://plugin.org.uk/swh-plugins/amp")])?.arguments.first, .int32(4))
        osc.send("/fx/haptic/1/gain", [.float(-6)])
        _ = try rec.record()
        osc.send("/fx/entrainment/remove", [.int32(1)])
        osc.send("/fx/entrainment/1/bypass", [.int32(0)])
        _ = try rec.record()
        stopClient(client)
        try assertClean(report)
    }

    /// The probe's counts: it saw the process thread, which neither allocated, freed nor locked.
    func assertClean(_ report: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try String(contentsOf: report, encoding: .utf8)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { counts[String(parts[0])] = Int(parts[1]) }
        }
        XCTAssertGreaterThan(counts["buffer_calls"] ?? 0, 500, "the probe must have seen the process thread: \(text)", file: file, line: line)
        XCTAssertEqual(counts["mallocs"], 0, text, file: file, line: line)
        XCTAssertEqual(counts["frees"], 0, text, file: file, line: line)
        XCTAssertEqual(counts["mutex_locks"], 0, text, file: file, line: line)
    }
}
