import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import Logging
import TestSupport
import XCTest

/// A discovery server in this process on a free port, with the standard families, and what it logs.
class DiscoveryServerTestCase: XCTestCase {
    var space: AddressSpace!
    var server: DiscoveryServer!
    var port = 0
    let log = LogLines()

    func start(bind: String = "127.0.0.1", limits: ConnectionLimits.Numbers = .init(),
               allows: @escaping @Sendable (SocketAddress) -> Bool = { _ in true }) throws {
        space = AddressSpace(try OSCSchema.standardFamilies())
        var configuration = DiscoveryServer.Configuration()
        configuration.bind = bind
        configuration.port = 0
        configuration.oscPort = 9123
        configuration.limits = limits
        let families = space!
        let lines = log
        server = DiscoveryServer(configuration: configuration, space: families,
                                 bridge: BridgedPeers(), allows: allows,
                                 logger: Logger(label: "test") { _ in LogLines.Handler(lines: lines) })
        try server.start()
        port = try XCTUnwrap(server.port)
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    /// Waits until `condition` holds, or fails after `timeout` seconds.
    func wait(_ what: String, timeout: Double = 10, until condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out waiting for \(what)", file: file, line: line) }
            usleep(10_000)
        }
    }
}

/// Log lines kept for a test to read.
final class LogLines: @unchecked Sendable {  // every access goes through the lock
    private let lock = NSLock()
    private var kept: [String] = []

    var all: [String] { lock.withLock { kept } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    func add(_ line: String) { lock.withLock { kept.append(line) } }

    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            lines.add("\(message)")
        }
    }
}
