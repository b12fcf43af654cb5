import EntrainControl
import Foundation
import TestSupport
import XCTest

/// Presets and last-used settings with the real client.
final class LibraryLiveTests: LiveClientTestCase {
    func testLastUsedSettingsSurviveARestartAndPresetsWorkOverOSC() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("live-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = ["XDG_DATA_HOME": data.path]
        let rec = try recorder(seconds: 0.1)
        let port = freePort()
        // Restoring (the default) is what is tested here, so not the fixture's start (--no-restore).
        let arguments = ["run", "--quiet", "--osc-port", "\(port)", "--fade-in", "0.05", "--fade-out", "0.2"]
        var client = try EntrainBinary.launch(arguments, environment: try server.environment.merging(environment) { $1 })
        try rec.waitForPort("entrain:haptic")
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil, Date() < deadline {}
        osc.send("/entrain/carrier", [.float(345)])
        osc.send("/preset/save", [.string("Mine")])
        XCTAssertEqual(osc.request("/preset/list")?.arguments, [.string("Mine")])
        osc.send("/entrain/carrier", [.float(250)])
        osc.send("/preset/load", [.string("Mine"), .float(0)])
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(345)], "the preset brought 345 Hz back")
        XCTAssertEqual(osc.request("/preset/load", [.string("../../etc/passwd")], reply: "/error")?.arguments.first, .string("/preset/load"))
        stopClient(client)

        client = try EntrainBinary.launch(arguments, environment: try server.environment.merging(environment) { $1 })
        defer { stopClient(client) }
        try rec.waitForPort("entrain:haptic")
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil, Date() < deadline + 10 {}
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(345)], "the last-used settings came back")
    }
}
