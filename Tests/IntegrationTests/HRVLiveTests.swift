import EntrainControl
import Foundation
import TestSupport
import XCTest

/// HRV biofeedback in the running client: heart data from real OSC senders (liblo's oscsend and
/// our OSC client) in every bridge format, published values and feedback, the recording
/// surviving a kill, and mappings and the pacer measured on the LED port.
final class HRVLiveTests: LiveClientTestCase {
    func oscsend(_ port: Int, _ address: String, _ types: String, _ values: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
        process.arguments = ["localhost", "\(port)", address, types] + values
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "oscsend \(address)")
    }

    /// RR (ms, rounded) of `seconds` of breathing at `hz` with an 80 ms swing, or of no rhythm.
    static func series(seconds: Double, hz: Double?, seed: UInt64 = 1) -> [Int] {
        var rng = SplitMix(seed), out: [Int] = [], t = 0.0
        while t < seconds {
            let noise = (rng.unit() - 0.5) * 16  // ±8 ms beat to beat
            let rr = hz.map { 1000 + 80 * sin(2 * Double.pi * $0 * t) + noise } ?? 850 + (rng.unit() - 0.5) * 160
            out.append(Int(rr.rounded()))
            t += rr / 1000
        }
        return out
    }

    struct SplitMix {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    func number(_ osc: OSCTestClient, _ address: String) -> Double? { osc.request(address)?.arguments.first?.number }

    /// Wait (up to 3 s) until `address` reads a value `accept` takes.
    func waitFor(_ osc: OSCTestClient, _ address: String, _ accept: (Double) -> Bool) -> Double? {
        let deadline = Date().addingTimeInterval(3)
        var last: Double?
        while Date() < deadline {
            last = number(osc, address)
            if let last, accept(last) { return last }
            usleep(50_000)
        }
        return last
    }

    func testEveryBridgeFormatReachesThePipeline() throws {
        let rec = try recorder(seconds: 0.1)
        let heartPort = freePort()
        let (client, port, osc) = try startWithOSC(["--hrv-port", "\(heartPort)"], recorder: rec)
        defer { stopClient(client) }

        // A BPM-only sender: heart rate shown, HRV unavailable.
        try oscsend(port, "/avatar/parameters/HR", "i", ["72"])
        XCTAssertEqual(waitFor(osc, "/hrv/hr") { $0 == 72 }, 72)
        XCTAssertEqual(osc.request("/hrv/available")?.arguments, [.false])
        XCTAssertEqual(number(osc, "/hrv/beats"), 0, "no RR made up from BPM")

        // Ours: 20 intervals in one message, ints and floats alike.
        try oscsend(port, "/hrv/rr", String(repeating: "i", count: 19) + "f", Array(repeating: "1000", count: 19) + ["1000.0"])
        XCTAssertEqual(waitFor(osc, "/hrv/beats") { $0 == 20 }, 20)
        XCTAssertEqual(waitFor(osc, "/hrv/hr") { $0 == 60 }, 60)
        XCTAssertEqual(osc.request("/hrv/available")?.arguments, [.true])
        usleep(1_100_000)

        // polar2osc on the heart port: 1/1024 s (768 → 750 ms), one message per beat.
        for _ in 0..<5 { try oscsend(heartPort, "/polar/1/ibi", "i", ["768"]) }
        XCTAssertEqual(waitFor(osc, "/hrv/beats") { $0 == 25 }, 25)
        XCTAssertEqual(waitFor(osc, "/hrv/hr") { abs($0 - 80) < 1e-3 } ?? 0, 80, accuracy: 1e-3)
        usleep(1_100_000)

        // Sensor2OSC: [hr, RR ms…, RR 1/1024 s…, contact, supported], five beats over three messages.
        try oscsend(port, "/B5A32F/hr", "iiiiiii", ["70", "857", "857", "878", "878", "1", "1"])
        try oscsend(port, "/B5A32F/hr", "iiiiiii", ["70", "857", "857", "878", "878", "1", "1"])
        try oscsend(heartPort, "/B5A32F/hr", "iiiii", ["70", "857", "878", "1", "1"])
        XCTAssertEqual(waitFor(osc, "/hrv/beats") { $0 == 30 }, 30)
        XCTAssertEqual(waitFor(osc, "/hrv/hr") { abs($0 - 60_000 / 857) < 1e-3 } ?? 0, 60_000 / 857, accuracy: 1e-3)
        usleep(1_100_000)

        // VRChat's RRInterval: newest only, a repeat dropped, and 60000/BPM of the last heart
        // rate (the sender's stand-in when it has no RR) dropped.
        for value in ["860", "860", "870"] { try oscsend(port, "/avatar/parameters/RRInterval", "i", [value]) }
        try oscsend(port, "/avatar/parameters/HR", "i", ["75"])
        try oscsend(port, "/avatar/parameters/RRInterval", "i", ["800"])
        try oscsend(port, "/hrv/rr", "iii", ["880", "850", "860"])
        XCTAssertEqual(waitFor(osc, "/hrv/beats") { $0 == 35 }, 35)
        // EmotiBit's BI stream, in ms, on the heart port.
        try oscsend(heartPort, "/EmotiBit/0/BI", "ff", ["865.5", "870"])
        XCTAssertEqual(waitFor(osc, "/hrv/beats") { $0 == 37 }, 37)
        XCTAssertEqual(number(osc, "/hrv/artifacts"), 0)

        // Artifacts through OSC: out of range and a missed beat, counted, not taken.
        try oscsend(port, "/hrv/rr", "iii", ["250", "2400", "1720"])
        XCTAssertEqual(waitFor(osc, "/hrv/artifacts") { $0 == 3 }, 3)
        XCTAssertEqual(number(osc, "/hrv/beats"), 37)

        // Nonsense gets /error and changes nothing; the heart port ignores the control surface.
        XCTAssertNotNil(osc.request("/hrv/rr", [.string("x")], reply: "/error"))
        try oscsend(heartPort, "/entrain/volume", "f", ["0.1"])
        usleep(200_000)
        XCTAssertNotEqual(number(osc, "/entrain/volume"), 0.1)
    }

    func testFeedbackRecordingAndReplay() throws {
        let rec = try recorder(seconds: 0.1)
        let folder = try TemporaryFolder("hrv")
        let file = folder.url.appendingPathComponent("heart.jsonl").path
        let (client, port, osc) = try startWithOSC(["--hrv-record", file], recorder: rec)
        let listener = try OSCTestClient(targetPort: port)
        listener.send("/osc/subscribe")
        let beats = Self.series(seconds: 90, hz: 0.1)
        osc.send("/hrv/rr", beats.prefix(64).map { .int32(Int32($0)) })
        // The rest a few beats at a time, as a sensor sends them; after a while the recording
        // moves to a named one (started over OSC, replacing --hrv-record's).
        var sent = 64
        for round in 0..<8 {
            usleep(500_000)
            if round == 3 { osc.send("/hrv/record/start", [.string("named")]) }
            osc.send("/hrv/rr", beats[sent..<(sent + 2)].map { .int32(Int32($0)) })
            sent += 2
        }
        let heard = listener.receive(timeout: 1.5)
        let mode = heard.last { $0.address == "/hrv/mode" }
        XCTAssertEqual(mode?.arguments.count, 2)
        XCTAssertNotNil(mode?.arguments.first?.text)
        XCTAssertTrue(heard.contains { $0.address == "/hrv/coherence/norm" }, "0…1 gauges")
        XCTAssertTrue(heard.contains { $0.address == "/hrv/phase" && $0.arguments.count == 7 })
        XCTAssertEqual(osc.request("/hrv/mode")?.arguments.count, 2)

        // Killed mid-session: every line written so far is whole.
        XCTAssertTrue(client.signal(SIGKILL, waitUpTo: 5))
        let named = EntrainBinary.dataDirectory.appendingPathComponent("entrain/recordings/named.jsonl").path
        defer { try? FileManager.default.removeItem(atPath: named) }
        var recorded: [Int] = []
        for (path, updates) in [(file, 2), (named, 2)] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("\n"), path)
            let lines = text.split(separator: "\n")
            XCTAssertGreaterThanOrEqual(lines.count, 1 + updates, "a header and updates: \(path)")
            XCTAssertTrue(lines[0].contains("\"session_start\""))
            for line in lines.dropFirst() {
                let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
                XCTAssertNotNil(object["metrics"])
                XCTAssertNotNil(object["phase"])
                recorded += ((object["rr"] as? [Double]) ?? []).map { Int($0) }
            }
            // A recording replays.
            let replay = try EntrainBinary.run(["hrv", "replay", path, "--jsonl"])
            XCTAssertEqual(replay.status, 0, replay.error)
        }
        // Beat for beat, across the two files (the beats after the last update wait for the next).
        XCTAssertGreaterThan(recorded.count, 64)
        XCTAssertEqual(recorded, Array(beats.prefix(recorded.count)))
    }

    func testCoherenceMappingSetsTheLEDAndThePacerSwells() throws {
        let server = try self.server
        let rec = try JackRecorder(server: server.name, channels: 1, seconds: 0.3, name: "hrvled")
        let (client, _, osc) = try startWithOSC(["--set", "/led/source/manual=1", "--set", "/hrv/map/coherence=/led/manual"],
                                                recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:led"])

        func ledAfterUpdate(_ beats: [Int]) throws -> (led: Float, coherence: Double) {
            osc.send("/hrv/rr", beats.map { .int32(Int32($0)) })
            usleep(1_600_000)  // the update, then the mapping's 1 s glide
            let take = try rec.record()
            return (take[0].last!, number(osc, "/hrv/coherence") ?? -1)
        }
        let rhythm = try ledAfterUpdate(Self.series(seconds: 70, hz: 0.1))
        XCTAssertGreaterThan(rhythm.coherence, 0.8)
        XCTAssertEqual(Double(rhythm.led), rhythm.coherence, accuracy: 0.01, "the LED port carries the coherence")
        usleep(1_100_000)
        let noise = try ledAfterUpdate(Self.series(seconds: 80, hz: nil, seed: 9))
        XCTAssertLessThan(noise.coherence, 0.6)
        XCTAssertEqual(Double(noise.led), noise.coherence, accuracy: 0.01)

        // The pacer instead: 20 breaths/min, a swell of 1.5 s up and 1.5 s down on the LED.
        osc.send("/hrv/map/coherence", [.string("none")])
        osc.send("/hrv/pacer/rate", [.float(20)])
        osc.send("/hrv/pacer", [.int32(1)])
        let long = try JackRecorder(server: server.name, channels: 1, seconds: 6.5, name: "pacer")
        try long.connect(["entrain:led"])
        let swell = try long.record()[0]
        osc.send("/hrv/pacer", [.int32(0)])
        XCTAssertGreaterThan(swell.max()!, 0.95)
        XCTAssertLessThan(swell.min()!, 0.05)
        // Tops one breath (3 s) apart.
        let rate = 48_000.0, hop = 480
        let level = stride(from: 0, to: swell.count - hop, by: hop).map { swell[$0] }
        let tops = level.indices.dropFirst().dropLast().filter { level[$0] > 0.95 && level[$0] >= level[$0 - 1] && level[$0] > level[$0 + 1] }
        XCTAssertGreaterThanOrEqual(tops.count, 2, "\(tops)")
        if tops.count >= 2 {
            XCTAssertEqual(Double(tops[1] - tops[0]) * Double(hop) / rate, 3, accuracy: 0.1, "one breath at 20/min")
        }
    }

    func testReplayCommandOnAFile() throws {
        let folder = try TemporaryFolder("hrv")
        let path = folder.url.appendingPathComponent("rr.txt").path
        try (Self.series(seconds: 200, hz: 0.1).map(String.init).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let run = try EntrainBinary.run(["hrv", "replay", path, "--jsonl"])
        XCTAssertEqual(run.status, 0, run.error)
        let updates = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertGreaterThan(updates.count, 100)
        for key in ["t", "hr", "rmssd", "sdnn", "pnn50", "breath_rate", "coherence", "entrainment", "mode", "membership"] {
            XCTAssertNotNil(updates.last?[key], key)
        }
        XCTAssertEqual(updates.last?["breath_rate"] as? Double ?? 0, 6, accuracy: 0.3)
        let bad = folder.url.appendingPathComponent("bad.txt").path
        try "1000\nabc\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try EntrainBinary.run(["hrv", "replay", bad])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.error.contains("bad.txt:2:1: expected an RR interval"), refused.error)
    }

    /// Turning the pacer off gives its targets back what they held (it set them to 0, and that 0
    /// was saved), and the last-used settings keep those values while it runs.
    func testPacerOffGivesItsTargetsBackAndTheyAreSaved() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("live-pacer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let rec = try recorder(channels: 1, seconds: 0.1)
        let port = freePort()
        let client = try startRestoring(data: data, port: port, recorder: rec)
        let osc = try OSCTestClient(targetPort: port)
        osc.send("/haptic/intensity", [.float(0.7)])
        osc.send("/led/manual", [.float(0.4)])
        func waitFor(_ address: String, _ wanted: (Double) -> Bool) -> Double? {
            let deadline = Date().addingTimeInterval(5)
            var last: Double?
            repeat {
                last = osc.request(address)?.arguments.first?.number
                if let last, wanted(last) { return last }
                usleep(50_000)
            } while Date() < deadline
            return last
        }
        osc.send("/hrv/pacer/rate", [.float(20)])
        osc.send("/hrv/pacer", [.int32(1)])
        XCTAssertEqual(waitFor("/haptic/intensity") { abs($0 - 0.7) > 0.01 } ?? 0.7, 1, accuracy: 1e-6, "the pacer swells to its depth")
        osc.send("/hrv/pacer", [.int32(0)])
        XCTAssertEqual(waitFor("/haptic/intensity") { abs($0 - 0.7) < 1e-6 } ?? -1, 0.7, accuracy: 1e-6, "given back, not 0")
        XCTAssertEqual(waitFor("/led/manual") { abs($0 - 0.4) < 1e-6 } ?? -1, 0.4, accuracy: 1e-6, "given back, not 0")
        // On again, and the client stops while it swells: the saved values are the ones before it.
        osc.send("/hrv/pacer", [.int32(1)])
        _ = waitFor("/haptic/intensity") { abs($0 - 0.7) > 0.01 }
        stopClient(client)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("entrain/last-used.json"))) as? [String: Any]
        let values = saved?["values"] as? [String: Any]
        XCTAssertEqual((values?["/haptic/intensity"] as? NSNumber)?.doubleValue ?? -1, 0.7, accuracy: 1e-6)
        XCTAssertEqual((values?["/led/manual"] as? NSNumber)?.doubleValue ?? -1, 0.4, accuracy: 1e-6)
    }
}
