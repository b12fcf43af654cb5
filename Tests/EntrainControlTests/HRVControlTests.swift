import EntrainAddressSpace
@testable import EntrainControl
import EntrainEngine
import TestSupport
import XCTest

/// The HRV family's OSC side without a running client: each bridge's message read in its unit,
/// refusals, settings checked through the address space and session files, the report.
final class HRVControlTests: XCTestCase {
    func read(_ address: String, _ arguments: [OSCValue]) -> Result<HeartInput, HeartInput.Refusal>? {
        HeartInput.read(OSCMessage(address, arguments))
    }

    func testEachBridgeInItsUnit() {
        XCTAssertEqual(read("/hrv/rr", [.int32(812), .float(830.5), .double(845)]), .success(.intervals([812, 830.5, 845])))
        XCTAssertEqual(read("/avatar/parameters/RRInterval", [.int32(900)]), .success(.newestInterval(900)))
        XCTAssertEqual(read("/polar/2/ibi", [.int32(900)]), .success(.intervals([900 * 1000 / 1024.0])))
        XCTAssertEqual(read("/polar/2/hr", [.int32(64)]), .success(.heartRate(64)))
        XCTAssertEqual(read("/B5A32F/hr", [70, 857, 861, 878, 882, 1, 1].map { .int32($0) }), .success(.intervals([857, 861])))
        XCTAssertEqual(read("/polar/B5A32F/hr", [70, 857, 878, 1, 1].map { .int32($0) }), .success(.intervals([857])))
        XCTAssertEqual(read("/B5A32F/hr", [70, 0, 1].map { .int32($0) }), .success(.heartRate(70)), "contact only: no RR")
        XCTAssertEqual(read("/EmotiBit/0/BI", [.float(912)]), .success(.intervals([912])))
        for address in ["/avatar/parameters/HR", "/heartrate", "/avatar/parameters/VRCOSC/Heartrate/Value"] {
            XCTAssertEqual(read(address, [.int32(72)]), .success(.heartRate(72)), address)
        }
        XCTAssertNil(read("/hrv/hr", []), "our published values are not heart input")
        XCTAssertNil(read("/entrain/beat", [.float(6)]))
    }

    func testNonsenseIsRefused() {
        for (address, arguments) in [("/hrv/rr", []), ("/hrv/rr", [OSCValue.string("900")]), ("/hrv/rr", [.float(.nan)]),
                                     ("/avatar/parameters/RRInterval", [.int32(1), .int32(2)]), ("/polar/1/ibi", [.string("x")]),
                                     ("/B5A32F/hr", [.int32(70), .int32(800)]), ("/heartrate", [])] as [(String, [OSCValue])] {
            guard case .failure? = read(address, arguments) else { return XCTFail("\(address) \(arguments) accepted") }
        }
    }

    func space() throws -> (AddressSpace, HRVMonitor) {
        let monitor = HRVMonitor()
        let space = AddressSpace([EngineFamily(CurrentEngine(try EngineHost(sampleRate: 48_000))), HRVFamily(monitor)])
        monitor.attach(space)
        return (space, monitor)
    }

    /// The pacer turned off and at once on again, over and over, while it gives its targets back:
    /// the values it gives back in the end are the ones from before it first started (a thread
    /// ending while another started once lost them, or gave back paced values).
    func testThePacerFlickedOnAndOffGivesBackTheValuesFromBeforeIt() throws {
        let (space, _) = try space()
        try space.set([try space.parse("/haptic/intensity", .number(0.7)), try space.parse("/led/manual", .number(0.4)),
                       try space.parse("/hrv/pacer/rate", .number(20))], from: .person)
        func pacer(_ on: Bool) throws { try space.set([try space.parse("/hrv/pacer", .bool(on))], from: .person) }
        for round in 0..<40 {
            try pacer(true)
            if round % 2 == 0 { try waitFor("the pacer to move a target", timeout: 5, interval: 0.001) { try space.value(of: "/haptic/intensity") != .number(0.7) } }
            try pacer(false)
            // Not a wait: a varied gap (0–0.8 ms) so the off-and-on-again lands at different points of the pacer's turn.
            if round % 3 == 0 { usleep(UInt32(round % 5) * 200) }
            try pacer(true)
            try pacer(false)
        }
        try waitFor("the targets given back", timeout: 5) {
            try space.value(of: "/haptic/intensity") == .number(0.7) && space.value(of: "/led/manual") == .number(0.4)
        }
        // And they stay there: no pacer thread is left to move them again.
        try waitFor("the pacer's thread gone", timeout: 5) { !ServiceThreadTests.threadNames().contains("entrain-pacer") }
        XCTAssertEqual(try space.value(of: "/haptic/intensity"), .number(0.7))
        XCTAssertEqual(try space.value(of: "/led/manual"), .number(0.4))
    }

    func testSettingsAreCheckedAndPublishedValuesReadOnly() throws {
        let (space, _) = try space()
        try space.set([try space.parse("/hrv/map/coherence", .text("/led/manual"))], from: .person)
        XCTAssertEqual(try space.value(of: "/hrv/map/coherence"), .text("/led/manual"))
        XCTAssertThrowsError(try space.set([try space.parse("/hrv/map/calm", .text("/hrv/pacer/depth"))], from: .person)) { error in
            XCTAssertTrue("\(error)".contains("an HRV address cannot be a mapping target"), "\(error)")
        }
        XCTAssertThrowsError(try space.set([try space.parse("/hrv/pacer/targets", .text("/led/manual,/nope"))], from: .person)) { error in
            XCTAssertEqual("\(error)", "/nope: unknown address")
        }
        XCTAssertThrowsError(try space.set([try space.parse("/hrv/map/calm", .text("/led/source"))], from: .person), "a list has no fader position") { _ in }
        XCTAssertThrowsError(try space.parse("/hrv/hr", .number(60))) { error in XCTAssertTrue("\(error)".contains("read-only")) }
        XCTAssertThrowsError(try space.parse("/hrv/pacer/rate", .number(40)))
        XCTAssertTrue(space.presetSnapshot().allSatisfy { !$0.address.hasPrefix("/hrv/") }, "never in presets or the last-used settings")
        try space.set([try space.parse("/hrv/map/coherence", .text("none"))], from: .person)
        XCTAssertEqual(try space.value(of: "/hrv/map/coherence"), .text("none"))
    }

    func testSessionStagesDeclareMappingsAndBadTargetsAreFoundAtLoad() throws {
        let good = """
            {"name": "s", "stages": [{"name": "a", "duration": 60,
              "set": {"/hrv/map/coherence": "/led/manual", "/hrv/pacer": true, "/hrv/pacer/rate": 6}}]}
            """
        XCTAssertNoThrow(try SessionDecoder.decode(good, file: "t.json"))
        let bad = """
            {"name": "s", "stages": [{"name": "a", "duration": 60,
              "set": {"/hrv/map/coherence": "/no/such", "/hrv/pacer/rate": 50}}]}
            """
        XCTAssertThrowsError(try SessionDecoder.decode(bad, file: "t.json")) { error in
            let problems = (error as? SessionLoadError)?.problems.map(\.description) ?? []
            XCTAssertEqual(problems.count, 2, "\(problems)")
            XCTAssertTrue(problems.contains { $0.hasPrefix("t.json:2:") && $0.contains("/no/such: unknown address") }, "\(problems)")
            XCTAssertTrue(problems.contains { $0.contains("/hrv/pacer/rate") && $0.contains("out of range") }, "\(problems)")
        }
    }

    func now(_ message: OSCMessage) -> TimedMessage { TimedMessage(timetag: .immediately, message: message) }

    func testReportCarriesModeAndPhaseAndBPMNeverMakesHRV() throws {
        let (space, monitor) = try space()
        let controller = HRVController(monitor: monitor)
        XCTAssertEqual(controller.handle(now(OSCMessage("/avatar/parameters/HR", [.int32(66)])), frame: nil), [])
        XCTAssertEqual(try space.value(of: "/hrv/hr"), .number(66))
        XCTAssertEqual(try space.value(of: "/hrv/available"), .bool(false))
        XCTAssertEqual(monitor.report(), [], "nothing to report without RR")
        guard case .error? = controller.handle(now(OSCMessage("/hrv/mode")), frame: nil)?.first else { return XCTFail("mode without data") }

        let beats = (0..<64).map { i in OSCValue.int32(Int32(1000 + 80 * sin(2 * Double.pi * Double(i) / 10))) }
        XCTAssertEqual(controller.handle(now(OSCMessage("/hrv/rr", beats)), frame: nil), [])
        XCTAssertEqual(try space.value(of: "/hrv/available"), .bool(true))
        let report = monitor.report()
        XCTAssertEqual(report.map(\.address), ["/hrv/mode", "/hrv/phase"], "the first mode once, not twice")
        XCTAssertEqual(report[0].arguments.count, 2)
        XCTAssertEqual(report[1].arguments.count, 7)
        XCTAssertEqual(try space.value(of: "/hrv/beats"), .number(64))
    }
}
