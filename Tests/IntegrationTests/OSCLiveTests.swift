import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The OSC surface of the running client: real senders, a real server, real JACK.
final class OSCLiveTests: LiveClientTestCase {
    func oscsend(_ port: Int, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
        process.arguments = ["localhost", "\(port)"] + arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "oscsend \(arguments)")
    }

    func testOscsendChangesWhatPlaysAndQueriesAnswer() throws {
        let rec = try recorder(seconds: 2)
        let (client, port, osc) = try startWithOSC(recorder: rec)
        defer { stopClient(client) }
        try oscsend(port, ["/entrain/carrier", "f", "333"])
        try oscsend(port, ["/entrain/beat", "i", "5"])
        try waitFor("the beat to be 5") { osc.request("/entrain/beat")?.arguments == [.float(5)] }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        try rec.waitForSound()
        // A cycle lost to an xrun splices the take and moves its spectral peak (by 0.2 Hz under
        // PipeWire on a loaded machine): such a take that misses is taken again.
        try judgeThroughXruns("carrier and beat") {
            let (take, xruns) = try rec.recordCountingXruns()
            let left = Spectrum(take[0], sampleRate: 48_000).peak(from: 250, to: 450).frequency
            let right = Spectrum(take[1], sampleRate: 48_000).peak(from: 250, to: 450).frequency
            let miss = abs(left - 333) <= 0.1 && abs(right - 338) <= 0.1 ? nil : String(format: "the ears at %.2f and %.2f Hz, not 333 and 338 (± 0.1)", left, right)
            return (miss, xruns)
        }
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(333)])
        XCTAssertEqual(osc.request("/entrain/beat/norm")?.arguments, [.float(0.05)])
    }

    func testPanicSilencesWithinOnePeriodAndResumeBringsItBack() throws {
        let rec = try recorder(seconds: 1.5)
        let (client, _, osc) = try startWithOSC(["--volume", "0.8"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L"])
        try rec.waitForSound()
        let take = DispatchQueue.global().sync { () -> [Float]? in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { osc.send("/panic") }
            return try? rec.record()[0]
        }
        guard let signal = take else { return XCTFail("no recording") }
        // Where the level starts to fall, and where it is silence for good: at most 10 ms apart
        // (plus one 256-frame period of measuring granularity).
        let window = 128  // over half a 200 Hz cycle, so every window of steady tone holds a peak
        guard let fallStarts = stride(from: 0, to: signal.count - window, by: window)
                .first(where: { Measure.peak(signal[$0..<($0 + window)]) < 0.75 }),
              let lastSound = signal.lastIndex(where: { $0 != 0 }) else { return XCTFail("no panic seen") }
        XCTAssertLessThan(lastSound - fallStarts, 480 + 256, "silent within 10 ms of the fade starting")
        XCTAssertGreaterThan(lastSound, 12_000, "played before the panic")
        XCTAssertEqual(osc.request("/status")?.arguments[8], .int32(1), "/status reports the panic")
        osc.send("/resume")
        XCTAssertNoThrow(try waitFor("/status to report the resume") { osc.request("/status")?.arguments[safe: 8] == .int32(0) })
        let after = try rec.record()[0]
        XCTAssertGreaterThan(Measure.peak(after[48_000...]), 0.3, "sound is back after /resume")
    }

    func testSubscribersAndFixedTargetsGetFeedback() throws {
        let fixedPort = freePort()
        let rec = try recorder(seconds: 0.1)
        let listener = try OSCListener(port: fixedPort)
        let (client, port, osc) = try startWithOSC(["--osc-feedback", "127.0.0.1:\(fixedPort)"], recorder: rec)
        defer { stopClient(client) }
        osc.send("/osc/subscribe")
        let dump = osc.receive(timeout: 0.5)
        XCTAssertTrue(dump.contains(OSCMessage("/entrain/carrier", [.float(200)])), "a new subscriber gets the whole state")
        XCTAssertTrue(dump.contains(OSCMessage("/entrain/mode", [.string("binaural")])))
        try oscsend(port, ["/entrain/beat", "f", "7.5"])
        let changes = osc.receive(timeout: 0.5) { $0.address == "/entrain/beat/norm" }
        XCTAssertTrue(changes.contains(OSCMessage("/entrain/beat", [.float(7.5)])))
        XCTAssertTrue(changes.contains(OSCMessage("/entrain/beat/norm", [.float(0.075)])))
        XCTAssertTrue(osc.receive(timeout: 0.5) { $0.address == "/meter/entrainment" }.contains { $0.address == "/meter/entrainment" })
        XCTAssertTrue(listener.messages(timeout: 1).contains(OSCMessage("/entrain/beat", [.float(7.5)])), "--osc-feedback target")
        osc.send("/osc/unsubscribe")
        _ = osc.receive(timeout: 0.3)
        try oscsend(port, ["/entrain/beat", "f", "8"])
        XCTAssertFalse(osc.receive(timeout: 0.5).contains { $0.address == "/entrain/beat" }, "no feedback after unsubscribing")
    }

    /// Every kind of bad input gets /error, and the sound goes on exactly as before.
    func testBadInputIsAnsweredAndDoesNotDisturbTheSound() throws {
        let rec = try recorder(seconds: 3)
        let (client, _, osc) = try startWithOSC(["--volume", "0.6", "--fade-in", "0"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L"])
        try rec.waitForSound()
        let samples = try record(rec) {
            try rec.waitForFrames(14_400)
            let bad: [(String, [UInt8], String)] = [
                ("/entrain/carrier", OSCCodec.encode(OSCMessage("/entrain/carrier", [.string("high")])), "expects a number"),
                ("/entrain/carrier", OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(1), .float(2), .float(3)])), "arguments"),
                ("/entrain/carrier", OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(.nan)])), "finite"),
                ("/entrain/beat", OSCCodec.encode(OSCMessage("/entrain/beat", [.double(.infinity)])), "finite"),
                ("/entrain/carrier", OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(9000)])), "out of range"),
                ("/entrain/nothing", OSCCodec.encode(OSCMessage("/entrain/nothing", [.float(1)])), "unknown address"),
                ("", Array("this is not OSC".utf8), "not an OSC packet"),
                ("", Array(OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(1)])).dropLast(2)), "malformed"),
                ("", [UInt8](repeating: 0x2F, count: 65_000), "malformed address"),
            ]
            for (address, bytes, reason) in bad {
                osc.send(bytes: bytes)
                let replies = osc.receive(timeout: 1) { $0.address == "/error" }
                guard let error = replies.last(where: { $0.address == "/error" }) else { XCTFail("no /error for \(reason)"); continue }
                XCTAssertEqual(error.arguments.first, .string(address), reason)
                XCTAssertTrue(error.arguments.last?.text?.contains(reason) ?? false, "\(error) should say \(reason)")
            }
        }
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(200)], "nothing changed")
        // Steady 200 Hz at 0.6 throughout: the same peak everywhere, no step beyond the tone's own.
        XCTAssertEqual(Measure.peak(samples[24_000...]), 0.6, accuracy: 0.001)
        // (Not across an xrun: a cycle the recording lost, or one the client missed, which leaves
        // stale samples in the take; the samples there are not neighbours.)
        let stretches = rec.untouchedStretches
        XCTAssertGreaterThan(stretches.reduce(0) { $0 + max(0, $1.upperBound - max($1.lowerBound, 24_000)) }, 48_000,
                             "a second of the take from 0.5 s on clear of xruns")
        XCTAssertLessThan(Measure.largestJump(samples, from: 24_000, within: stretches),
                          Float(0.6 * 2 * Double.pi * 200 / 48_000 * 1.02))
        XCTAssertGreaterThan(Measure.peak(samples[(samples.count - 4800)...]), 0.59, "still playing")
    }

    /// Two bundles time-tagged 1000.0 ms apart change the output exactly 48,000 frames apart.
    func testTimeTaggedBundlesLandOnTheirSamples() throws {
        let rec = try recorder(seconds: 3)
        let (client, _, osc) = try startWithOSC(["--volume", "0", "--carrier", "201.3", "--fade-in", "0"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L"])
        let samples = try record(rec) {
            try rec.waitForFrames(9_600)
            let start = OSCTimetag.now().unixTime + 0.8
            osc.send(bytes: OSCCodec.encodeBundle([OSCMessage("/entrain/volume", [.float(0.5), .float(0)])], timetag: OSCTimetag(unixTime: start)))
            osc.send(bytes: OSCCodec.encodeBundle([OSCMessage("/entrain/volume", [.float(0), .float(0)])], timetag: OSCTimetag(unixTime: start + 1)))
        }
        guard let on = samples.firstIndex(where: { $0 != 0 }), let off = samples.lastIndex(where: { $0 != 0 }) else {
            return XCTFail("the bundles changed nothing")
        }
        // A cycle an xrun cost the recording between them shortens the take (unless the client
        // lost it too): either way the change is 48,000 of the client's frames apart.
        let heard = off + 1 - on, lost = rec.timeline.framesLost(from: on, to: off)
        XCTAssertTrue(abs(heard - 48_000) <= 1 || abs(heard + lost - 48_000) <= 1,
                      "1000.0 ms apart = 48,000 frames: \(heard) recorded, \(lost) lost to xruns")
    }

    /// A change time-tagged 2 s ahead is reported when it plays: before its time the query,
    /// OSCQuery's VALUE and a subscriber all say what plays (they said 450 at once, while 300 Hz
    /// played on), and the subscriber hears of 450 when its frame is reached.
    func testScheduledChangeIsReportedWhenItPlays() throws {
        let rec = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(["--carrier", "300"], recorder: rec)
        defer { stopClient(client) }
        let subscriber = try OSCTestClient(targetPort: port)
        XCTAssertFalse(subscriber.request("/osc/subscribe", reply: "/entrain/carrier", timeout: 5) == nil, "the full state arrives")
        _ = subscriber.receive(timeout: 0.3)  // the rest of the full state
        let due = OSCTimetag.now().unixTime + 2
        osc.send(bytes: OSCCodec.encodeBundle([OSCMessage("/entrain/carrier", [.float(450)])], timetag: OSCTimetag(unixTime: due)))
        usleep(300_000)
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(300)], "the query answers what plays")
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/entrain/carrier?VALUE").json()["VALUE"] as? [Double], [300])
        let heard = subscriber.receiveTimed(timeout: 2.5).first { $0.message.message.address == "/entrain/carrier" }
        XCTAssertEqual(heard?.message.message.arguments, [.float(450)])
        XCTAssertGreaterThan(heard?.arrival ?? 0, due - 0.02, "fed back once it plays, not when it was queued")
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(450)])
    }

    /// 100,000 random and mutated packets: the client stays up, answers /ping, and its process
    /// callback is not slowed: the slowest callback of each second, as /status reports it, stays
    /// within the period. (Not the xrun count: this machine's dummy jackd has xruns of its own.)
    func testFuzzedPacketsLeaveTheClientPlaying() throws {
        let rec = try recorder(seconds: 0.1)
        let (client, _, osc) = try startWithOSC(recorder: rec)
        defer { stopClient(client) }
        var slowest: [Float] = []
        func noteSlowest() {
            if case .float(let percent)? = osc.request("/status", timeout: 0.5)?.arguments[safe: 13] { slowest.append(percent) }
        }
        var random = SystemRandomNumberGenerator()
        let seeds = [OSCCodec.encode(OSCMessage("/entrain/carrier", [.float(300)])),
                     OSCCodec.encode(OSCMessage("/entrain/mode", [.string("monaural")])),
                     OSCCodec.encodeBundle([OSCMessage("/entrain/beat", [.int32(4)])], timetag: .now())]
        for i in 0..<100_000 {
            var bytes = i % 3 == 0 ? (0..<Int.random(in: 1...96, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                                   : seeds[i % seeds.count]
            if i % 3 != 0 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            osc.send(bytes: bytes)
            if i % 2000 == 0 { usleep(20_000) }  // about 50,000 packets a second
            if i % 20_000 == 19_999 { noteSlowest() }
        }
        _ = osc.receive(timeout: 1)
        XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 5), "still answering")
        let status = osc.request("/status")
        XCTAssertEqual(status?.arguments.first, .string("running"))
        noteSlowest()
        XCTAssertGreaterThanOrEqual(slowest.count, 3, "/status answered during the flood")
        XCTAssertLessThan(slowest.sorted()[slowest.count / 2], 100, "the slowest callback of each second, % of the period: \(slowest)")
        print("fuzzed OSC: slowest process callback of each second \(slowest) % of the period")
        XCTAssertTrue(client.process.isRunning)
    }

    /// /status's last field: the slowest process callback of the last whole second, measured on
    /// the process thread. Zero would mean nothing was measured; 100 % or more an overrun.
    func testStatusReportsTheSlowestPeriod() throws {
        let rec = try recorder(seconds: 0.1)
        let (client, _, osc) = try startWithOSC(recorder: rec)
        defer { stopClient(client) }
        // Once one whole second rolled over after the first periods.
        var slowest: Float = 0
        try waitFor("/status to report the slowest period") {
            guard case .float(let value)? = osc.request("/status")?.arguments[safe: 13] else { return false }
            slowest = value
            return value > 0
        }
        XCTAssertLessThan(slowest, 100, "a tone and a noise bed take well under a period")
    }

    func testOpeningOSCToANetworkNeedsAnAllowList() throws {
        let result = try EntrainBinary.run(["run", "--osc-bind", "0.0.0.0", "--quiet"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.error.contains("--osc-allow"), result.error)
    }

    func testABusyPortIsAClearError() throws {
        let port = freePort()
        let blocker = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(blocker) }
        XCTAssertTrue(Loopback.bind(blocker, port: port))
        let server = try self.server
        let result = try EntrainBinary.run(["run", "--quiet", "--osc-port", "\(port)"], environment: server.environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("cannot listen for OSC on 127.0.0.1:\(port)"), result.error)
    }
}

/// Collects what arrives on a UDP port (for --osc-feedback targets).
final class OSCListener {
    let client: OSCTestClient
    init(port: Int) throws {
        client = try OSCTestClient(targetPort: 9, bindPort: port)
    }
    func messages(timeout: TimeInterval) -> [OSCMessage] { client.receive(timeout: timeout) }
}
