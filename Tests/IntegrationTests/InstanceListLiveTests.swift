import Foundation
import TestSupport
import XCTest

/// Several instances on one network, found by name: two `entrain run --advertise` and a real
/// avahi-daemon inside a network namespace of the test's own (mDNS never reaches the host's
/// interfaces); `entrain ctl --list` lists both with their ports, and `ctl --name` reaches the
/// one named and not the other.
final class InstanceListLiveTests: LiveClientTestCase {
    func testCtlListsTheAdvertisedInstancesAndTalksToOneByName() throws {
        if let reason = PrivateNetwork.unavailable { throw XCTSkip(reason) }
        let network = try PrivateNetwork()
        let avahi: AvahiTestDaemon
        do { avahi = try AvahiTestDaemon(through: network.exec) } catch { throw XCTSkip("no private avahi-daemon: \(error)") }
        defer { avahi.stop() }
        let environment = try server.environment.merging(avahi.environment) { $1 }
        let recorder = try recorder(seconds: 0.1)

        func launch(_ name: String, port: Int) throws -> EntrainBinary.Launched {
            let client = try EntrainBinary.launch(["run", "--quiet", "--name", name, "--osc-port", "\(port)", "--no-restore", "--advertise",
                                                   "--osc-bind", network.address, "--osc-allow", "any", "--fade-out", "0.05"],
                                                  environment: environment, through: network.exec)
            try recorder.waitForPort("\(name):haptic")
            try waitFor("\(name) to be advertised") { client.result().error.contains("advertised '\(name)'") }
            return client
        }
        func ctl(_ arguments: [String]) throws -> EntrainBinary.Result {
            let run = try EntrainBinary.launch(["ctl"] + arguments, environment: environment, through: network.exec)
            run.process.waitUntilExit()
            return run.result()
        }
        let (stagePort, boothPort) = (freePort(), freePort())
        let stage = try launch("stage", port: stagePort)
        defer { stopClient(stage) }
        let booth = try launch("booth", port: boothPort)
        defer { stopClient(booth) }

        // Avahi resolves a new service within moments: list until both are there.
        var listed = try ctl(["--list"])
        try waitFor("both instances listed", timeout: 20, interval: 0.2) {
            listed = try ctl(["--list"])
            return listed.output.contains("stage") && listed.output.contains("booth")
        }
        XCTAssertEqual(listed.status, 0, listed.error)
        let rows = listed.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(rows.first, ["NAME", "ADDRESS", "OSC", "OSCQUERY", "HOST"])
        let byName = Dictionary(rows.dropFirst().map { ($0[0], $0) }) { first, _ in first }
        XCTAssertEqual(byName["stage"]?[1], network.address, listed.output)
        XCTAssertEqual(byName["stage"]?[2], "\(stagePort)", "OSC port: \(listed.output)")
        XCTAssertEqual(byName["booth"]?[2], "\(boothPort)", "OSC port: \(listed.output)")
        XCTAssertEqual(byName["booth"]?[3], "\(boothPort)", "OSCQuery on the same number over TCP: \(listed.output)")
        XCTAssertEqual(rows.count, 3, "only the two instances: \(listed.output)")

        // By name: the booth takes the value, the stage keeps its own.
        let set = try ctl(["--name", "booth", "/entrain/carrier", "321"])
        XCTAssertEqual(set.status, 0, set.error)
        XCTAssertEqual(set.output.trimmingCharacters(in: .whitespacesAndNewlines), "/entrain/carrier 321")
        let other = try ctl(["--name", "stage", "/entrain/carrier"])
        XCTAssertEqual(other.status, 0, other.error)
        XCTAssertTrue(other.output.hasPrefix("/entrain/carrier "), other.output)
        XCTAssertFalse(other.output.contains("321"), "the stage kept its carrier: \(other.output)")

        // A name nobody advertises: said so, with the names that are.
        let nobody = try ctl(["--name", "nobody", "ping"])
        XCTAssertNotEqual(nobody.status, 0)
        XCTAssertTrue(nobody.error.contains("no entrain advertised as 'nobody'") && nobody.error.contains("booth, stage"), nobody.error)
    }
}
