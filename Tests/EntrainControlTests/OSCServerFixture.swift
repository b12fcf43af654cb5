import EntrainControl
import EntrainEngine
import Foundation
import Logging
import Synchronization
import TestSupport

/// A real OSCServer on loopback (UDP and TCP, on free ports) over an engine with no JACK behind
/// it: the network surface under test, with its log lines kept.
final class OSCServerFixture {
    let host: EngineHost
    let server: OSCServer
    let log = LogLines()
    var udpPort: Int { Int(server.address.port) }
    var tcpPort: Int { Int(server.tcpAddress!.port) }

    init(transport: (CurrentEngine) -> SessionTransport? = { _ in nil },
         _ configure: (inout OSCServer.Configuration) -> Void = { _ in }) throws {
        let host = try TestEngine.host()
        self.host = host
        var configuration = OSCServer.Configuration()
        configuration.port = 0
        configuration.tcpPort = 0
        configure(&configuration)
        let router = OSCRouter(host: { host }, frame: { _ in nil }, status: { [] }, transport: transport(CurrentEngine(host)))
        let lines = log
        server = try OSCServer(configuration: configuration, router: router, host: { host }, meter: PeakMeter(),
                               logger: Logger(label: "osc-test") { _ in LogLines.Handler(lines: lines) })
        server.start()
    }

    deinit { server.stop() }

    /// A UDP sender and receiver aimed at the server.
    func client() throws -> OSCTestClient { try OSCTestClient(targetPort: udpPort) }

    /// Run the engine for one period, so commands the server sent take effect.
    func renderOnePeriod() { _ = OfflineRenderer(host: host).renderStereo(frames: 256) }
}

/// Log lines as the logger wrote them.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }

    struct Handler: LogHandler {
        let lines: LogLines
        var logLevel = Logger.Level.trace
        var metadata = Logger.Metadata()
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            lines.lines.withLock { $0.append("\(message)") }
        }
    }
}
