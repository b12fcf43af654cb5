import Foundation
import TestSupport
import XCTest

/// The live client's control-side threads, as the system shows them (/proc/PID/task/*/comm):
/// each loop under its own name while it runs, the pacer's gone when it is turned off, and all
/// of them stopped on Ctrl-C with a clean exit.
final class ServiceThreadLiveTests: LiveClientTestCase {
    func threadNames(_ pid: Int32) -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return Set(tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    func testEveryServiceThreadIsNamedAndStopsOnCtrlC() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--artnet", "127.0.0.1:\(receiver.port)", "--dmx-map", "1=led",
                                                 "--midi-in", "--midi-clock", "--hrv-port", "\(freePort())"], recorder: rec)
        let pid = client.process.processIdentifier
        osc.send("/hrv/pacer", [.int32(1)])
        let expected: Set = ["entrain-osc", "entrain-dmx", "entrain-midi-in", "entrain-hrv-in", "entrain-ambient",
                             "entrain-phrase", "entrain-pacer"]
        var seen: Set<String> = []
        let all = waitUntil(timeout: 10) {
            seen = threadNames(pid)
            return expected.isSubset(of: seen)
        }
        XCTAssertTrue(all, "missing: \(expected.subtracting(seen)); threads: \(seen.sorted())")
        osc.send("/hrv/pacer", [.int32(0)])
        XCTAssertTrue(waitUntil(timeout: 10) { !threadNames(pid).contains("entrain-pacer") }, "the pacer's thread ends when it is turned off")
        XCTAssertTrue(threadNames(pid).contains("entrain-osc"), "the others go on")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5), "Ctrl-C stops every thread and ends the run")
        XCTAssertEqual(client.result().status, 0, client.result().error)
    }
}
