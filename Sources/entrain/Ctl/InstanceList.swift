import EntrainDiscovery
import Foundation

/// `ctl --list` and `ctl --name`: the instances `run --advertise` announces over mDNS.
enum InstanceList {
    static func print() throws {
        let found = try browse()
        guard !found.isEmpty else {
            FileHandle.standardError.write(Data("no entrain advertised on the network (an instance advertises itself with `entrain run --advertise --osc-bind ADDRESS`)\n".utf8))
            return
        }
        let rows = [["NAME", "ADDRESS", "OSC", "OSCQUERY", "HOST"]] + found.map {
            [$0.name, $0.address, $0.oscPort.map(String.init) ?? "-", $0.queryPort.map(String.init) ?? "-", $0.host]
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            Swift.print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces))
        }
    }

    /// A session with the instance advertised as `name`: the first of its addresses that answers
    /// a ping (a machine advertising on every interface is listed once per address).
    static func session(named name: String, timeout: TimeInterval) throws -> CtlSession {
        let found = try browse()
        let matches = found.filter { $0.name == name && $0.oscPort != nil }
        guard !matches.isEmpty else {
            let names = Set(found.map(\.name)).sorted()
            throw CtlSession.NoAnswer(description: "no entrain advertised as '\(name)' on the network"
                                      + (names.isEmpty ? " (none is advertised: `entrain run --advertise`)" : "; advertised: \(names.joined(separator: ", "))"))
        }
        var lastError: Error?
        for instance in matches {
            do {
                let session = try CtlSession(host: instance.address, port: instance.oscPort!, timeout: timeout)
                try session.checkAlive()
                return session
            } catch { lastError = error }
        }
        throw lastError!
    }

    private static func browse() throws -> [InstanceBrowser.Instance] {
        do { return try InstanceBrowser.browse() } catch let error as InstanceBrowser.BrowseError {
            throw CtlSession.NoAnswer(description: "cannot look for instances: \(error.description)")
        }
    }
}
