import Foundation
import TestSupport
import XCTest

/// `entrain ctl` against a real client: set, query, status, watch, refusals, no client.
final class CtlLiveTests: LiveClientTestCase {
    func testCtlSetsQueriesReportsAndWatchesALiveClient() throws {
        let recorder = try JackRecorder(server: try server.name, channels: 1, seconds: 0.1)
        let (client, port, _) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        func ctl(_ arguments: [String]) throws -> EntrainBinary.Result { try EntrainBinary.run(["ctl", "--port", "\(port)"] + arguments) }

        let set = try ctl(["/entrain/carrier", "250"])
        XCTAssertEqual(set.status, 0, set.error)
        XCTAssertEqual(set.output, "/entrain/carrier 250\n", "a set shows the value now in force")
        let query = try ctl(["/entrain/carrier"])
        XCTAssertEqual(query.output, "/entrain/carrier 250\n")
        let float = try ctl(["/entrain/beat", "6.5"])
        XCTAssertEqual(float.output, "/entrain/beat 6.5\n", float.error)

        let refused = try ctl(["/entrain/carrier", "5000"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.contains("out of range"), refused.error)
        XCTAssertEqual(try ctl(["/entrain/carrier"]).output, "/entrain/carrier 250\n", "nothing changed")

        let status = try ctl(["status"])
        XCTAssertEqual(status.status, 0, status.error)
        XCTAssertTrue(status.output.contains("state              running"), status.output)
        XCTAssertTrue(status.output.contains("carrier (Hz)       250"), status.output)

        // Feedback until a count: the meters arrive 15 times a second.
        let watch = try ctl(["--watch", "/meter/*", "--count", "3"])
        XCTAssertEqual(watch.status, 0, watch.error)
        let lines = watch.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, watch.output)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("/meter/") }, watch.output)

        // A change made elsewhere shows up in a watch.
        let watcher = try EntrainBinary.launch(["ctl", "--port", "\(port)", "--watch", "/entrain/carrier", "--count", "2"])
        // The subscription's whole state (about 9 KB, paced at 16 KB/s) brings 250 first.
        try waitFor("the watch to print the carrier") { watcher.result().output.contains("/entrain/carrier 250") }
        _ = try ctl(["/entrain/carrier", "300"])
        XCTAssertTrue(watcher.signal(0, waitUpTo: 5), "the watch ends after its count")
        XCTAssertEqual(watcher.result().output, "/entrain/carrier 250\n/entrain/carrier 300\n")
    }

    /// Options after the address reach the right port (they went to 8000); commands without a
    /// reply exit 0 and print the state they changed (they exited 1, "no answer"); a set of a
    /// hosted plugin's control prints the value in force (it printed nothing).
    func testCtlOptionsAfterTheAddressCommandsAndPluginControls() throws {
        let recorder = try JackRecorder(server: try server.name, channels: 1, seconds: 0.1)
        let (client, port, _) = try startWithOSC(["--insert", "entrainment:http://plugin.org.uk/swh-plugins/amp"], recorder: recorder)
        defer { stopClient(client) }
        let after = try EntrainBinary.run(["ctl", "/entrain/carrier", "250", "--port", "\(port)"])
        XCTAssertEqual(after.status, 0, after.error)
        XCTAssertEqual(after.output, "/entrain/carrier 250\n")
        let equals = try EntrainBinary.run(["ctl", "/entrain/carrier", "--port=\(port)", "--timeout", "2"])
        XCTAssertEqual(equals.output, "/entrain/carrier 250\n", equals.error)

        let panic = try EntrainBinary.run(["ctl", "--port", "\(port)", "/panic"])
        XCTAssertEqual(panic.status, 0, panic.error)
        XCTAssertEqual(panic.output, "state running\npanic 1\n")
        let resume = try EntrainBinary.run(["ctl", "/resume", "--port", "\(port)"])
        XCTAssertEqual(resume.status, 0, resume.error)
        XCTAssertEqual(resume.output, "state running\npanic 0\n")
        let play = try EntrainBinary.run(["ctl", "--port", "\(port)", "/session/play"])
        XCTAssertEqual(play.status, 1, "no session loaded: refused")
        let stop = try EntrainBinary.run(["ctl", "--port", "\(port)", "/session/stop"])
        XCTAssertEqual(stop.status, 0, stop.error)
        XCTAssertTrue(stop.output.hasPrefix("/session/state "), stop.output)

        let gain = try EntrainBinary.run(["ctl", "--port", "\(port)", "/fx/entrainment/1/gain", "-6"])
        XCTAssertEqual(gain.status, 0, gain.error)
        XCTAssertEqual(gain.output, "/fx/entrainment/1/gain -6\n")
        let typo = try EntrainBinary.run(["ctl", "--port", "\(port)", "/entrain/carier", "250"])
        XCTAssertEqual(typo.status, 1)
        XCTAssertTrue(typo.error.contains("/entrain/carier"), typo.error)
    }

    func testCtlWithoutAClientTimesOutWithAClearMessage() throws {
        let result = try EntrainBinary.run(["ctl", "--port", "\(freePort())", "--timeout", "0.3", "status"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("no entrain answered at 127.0.0.1:"), result.error)
        XCTAssertTrue(result.error.contains("--port"), "it says how to point it elsewhere: \(result.error)")
    }
}
