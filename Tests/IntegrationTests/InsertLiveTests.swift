import CJack
import EntrainControl
import Foundation
import TestSupport
import XCTest

/// Hosted LV2 plugins in the running client: --insert, the /fx commands and controls over OSC,
/// the refusals on /error, the measured level, and the latency our ports report to JACK.
final class InsertLiveTests: LiveClientTestCase {
    static let amp = "http://plugin.org.uk/swh-plugins/amp"
    static let latency = "http://plugin.org.uk/swh-plugins/artificialLatency"

    func testInsertControlledOverOSCChangesTheLevel() throws {
        let rec = try recorder(seconds: 1)
        let (client, _, osc) = try startWithOSC(["--insert", "entrainment:\(Self.amp)", "--carrier", "200", "--beat", "10"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        XCTAssertEqual(osc.request("/fx/entrainment/1/gain")?.arguments.first?.number, 0)
        let before = try rec.record()
        osc.send("/fx/entrainment/1/gain", [.float(-12)])
        XCTAssertEqual(osc.request("/fx/entrainment/1/gain")?.arguments.first?.number, -12)
        _ = try rec.record()  // the change lands within this take
        let after = try rec.record()
        for channel in 0..<2 {
            let change = Measure.decibels(Measure.rms(after[channel][...]) / Measure.rms(before[channel][...]))
            XCTAssertEqual(change, -12, accuracy: 0.2, "channel \(channel)")
        }
        // Out of range and read-only values are refused like any address's.
        XCTAssertNotNil(osc.request("/fx/entrainment/1/gain", [.float(90)], reply: "/error"))
    }

    func testAddRepliesWithTheSlotAndRefusalsNameTheReason() throws {
        let rec = try recorder(seconds: 0.1)
        // LV2_PATH: the installed plugins and a bundle needing a feature entrain lacks.
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-live-\(getpid())")
        defer { try? FileManager.default.removeItem(at: parent) }
        _ = try LV2TestBundle.needingInstanceAccess(in: parent)
        let port = freePort()
        let client = try startClient(["--osc-port", "\(port)"], environment: ["LV2_PATH": parent.path + ":/usr/lib/lv2"], recorder: rec)
        defer { stopClient(client) }
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil, Date() < deadline {}
        // The first add may wait for lilv to read every installed bundle.
        XCTAssertEqual(osc.request("/fx/ambient/add", [.string(Self.amp)], timeout: 20)?.arguments, [.int32(1), .string(Self.amp)])
        XCTAssertEqual(osc.request("/fx/ambient/add", [.string(Self.amp)])?.arguments, [.int32(2), .string(Self.amp)])
        XCTAssertNotNil(osc.request("/fx/ambient/2/gain"))
        let missing = osc.request("/fx/ambient/add", [.string("http://example.org/none")], reply: "/error")
        XCTAssertTrue("\(missing?.arguments ?? [])".contains("no LV2 plugin with URI 'http://example.org/none' is installed"), "\(missing?.arguments ?? [])")
        let unsupported = osc.request("/fx/ambient/add", [.string(LV2TestBundle.uri)], reply: "/error")
        XCTAssertEqual(unsupported?.arguments, [.string("/fx/ambient/add"), .string(LV2TestBundle.refusal)])
        osc.send("/fx/ambient/remove", [.int32(1)])
        XCTAssertNotNil(osc.request("/fx/ambient/2/gain", reply: "/error"), "one slot left")
        XCTAssertNotNil(osc.request("/fx/ambient/1/gain"))
    }

    /// A plugin reporting 10 ms of latency moves what our ports declare by 480 frames.
    func testPluginLatencyMovesTheReportedPortLatency() throws {
        let rec = try recorder(channels: 1, seconds: 0.1)
        let (client, _, osc) = try startWithOSC(["--insert", "entrainment:\(Self.latency)"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L"])
        func reported() -> jack_nframes_t {
            var range = jack_latency_range_t()
            jack_port_get_latency_range(jack_port_by_name(rec.client, "entrain:entrainment_L"), JackCaptureLatency, &range)
            return range.max
        }
        osc.send("/fx/entrainment/1/delay", [.float(10)])
        waitUntil(timeout: 5) { reported() == 71 + 480 }
        XCTAssertEqual(reported(), 71 + 480)
    }

    /// A chain saved in a preset over OSC comes back with its control values after it was removed.
    func testChainSavedInAPresetComesBack() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("live-fx-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let rec = try recorder(seconds: 0.1)
        let port = freePort()
        let client = try startClient(["--osc-port", "\(port)", "--insert", "entrainment:\(Self.amp)"],
                                     environment: ["XDG_DATA_HOME": data.path], recorder: rec)
        defer { stopClient(client) }
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil, Date() < deadline {}
        osc.send("/fx/entrainment/1/gain", [.float(-9)])
        osc.send("/preset/save", [.string("With amp")])
        XCTAssertEqual(osc.request("/preset/list")?.arguments, [.string("With amp")])
        osc.send("/fx/entrainment/remove", [.int32(1)])
        XCTAssertNotNil(osc.request("/fx/entrainment/1/gain", reply: "/error"), "removed")
        osc.send("/preset/load", [.string("With amp"), .float(0)])
        XCTAssertEqual(osc.request("/fx/entrainment/1/gain")?.arguments.first?.number, -9, "the preset brought the amp back at -9 dB")
    }

    /// A chain in the last-used settings comes back at the next start and is saved again at its
    /// exit (it was dropped at start and saved as "" at exit), and `--preset` brings a preset's chain.
    func testSavedChainComesBackAtStartAndSurvivesTheNextExit() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("live-fx-restore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let rec = try recorder(seconds: 0.1)
        let port = freePort()
        let osc = try OSCTestClient(targetPort: port)
        func start(_ extra: [String]) throws -> EntrainBinary.Launched { try startRestoring(extra, data: data, port: port, recorder: rec) }
        let lastUsed = data.appendingPathComponent("entrain/last-used.json")
        func savedChain() -> String { (try? String(contentsOf: lastUsed, encoding: .utf8)) ?? "" }

        var client = try start(["--insert", "entrainment:\(Self.amp)"])
        osc.send("/fx/entrainment/1/gain", [.float(-9)])
        osc.send("/preset/save", [.string("With amp")])
        XCTAssertEqual(osc.request("/preset/list")?.arguments, [.string("With amp")])
        stopClient(client)
        XCTAssertTrue(savedChain().contains(Self.amp), "the first exit saved the chain: \(savedChain())")

        client = try start([])
        XCTAssertEqual(osc.request("/fx/entrainment/1/gain")?.arguments.first?.number, -9, "the last-used chain came back at -9 dB")
        stopClient(client)
        XCTAssertTrue(savedChain().contains(Self.amp), "the second exit kept the chain: \(savedChain())")

        client = try start(["--no-restore", "--preset", "With amp"])
        defer { stopClient(client) }
        XCTAssertEqual(osc.request("/fx/entrainment/1/gain")?.arguments.first?.number, -9, "--preset brought the amp at -9 dB")
    }

    /// An LV2 enumeration takes its index as a number, as the engine's choices do (it refused
    /// `i 0`), and a range error prints the plugin's bounds as written (0.1, not 0.10000000149).
    func testEnumerationTakesAnIndexAndRangeErrorsReadCleanly() throws {
        let rec = try recorder(seconds: 0.1)
        let (client, _, osc) = try startWithOSC(["--insert", "entrainment:http://gareus.org/oss/lv2/balance",
                                                 "--insert", "entrainment:urn:dragonfly:room"], recorder: rec)
        defer { stopClient(client) }
        XCTAssertNil(osc.request("/fx/entrainment/1/unitygain", [.int32(2)], reply: "/error", timeout: 0.5))
        XCTAssertEqual(osc.request("/fx/entrainment/1/unitygain")?.arguments, [.string("Seesaw - Equal Power")])
        osc.send("/fx/entrainment/1/unitygain", [.float(0)])
        XCTAssertEqual(osc.request("/fx/entrainment/1/unitygain")?.arguments, [.string("Balance")])
        let beyond = osc.request("/fx/entrainment/1/unitygain", [.int32(3)], reply: "/error")
        XCTAssertTrue("\(beyond?.arguments ?? [])".contains("(or its index)"), "\(beyond?.arguments ?? [])")
        let range = osc.request("/fx/entrainment/2/decay", [.float(20)], reply: "/error")?.arguments.last?.text ?? ""
        XCTAssertTrue(range.contains("out of range 0.1–10"), range)
        XCTAssertFalse(range.contains("00000"), range)
    }
}
