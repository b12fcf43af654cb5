import ArgumentParser
import EntrainControl
import EntrainEngine
import EntrainJACK
import Foundation
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the JACK client until Ctrl-C (which fades out, then exits).")

    @OptionGroup var engine: EngineOptions
    @OptionGroup var osc: OSCOptions
    @OptionGroup var session: SessionOption
    @Option(help: "JACK client name (JACK appends -01 … if it is taken).")
    var name = "entrain"
    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER or 'default'). Never starts a server.")
    var server: String?
    @Flag(help: "Connect the audio outputs to the first two physical playback ports (ignored under NSM).")
    var autoconnect = false
    @Flag(help: "No status line.")
    var quiet = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func run() throws {
        let logger = LogSetup.logger(level: logLevel)
        let values = try engine.parameterValues()
        SignalWatcher.install()

        let client = try JackClient(options: .init(name: name, server: server), logger: logger)
        defer { client.close() }
        let program = try session.program(sampleRate: client.sampleRate)
        let current = CurrentEngine(try EngineHost(sampleRate: client.sampleRate, values: program?.initialValues(values) ?? values))
        let player = program.map { SessionPlayer(program: $0, startFrame: 0) }
        try player?.send(through: Int64(client.sampleRate), to: current.host)
        try client.activate(host: current.host)
        if autoconnect { try client.autoconnect() }
        logger.info("running as JACK client '\(client.name)' at \(Int(client.sampleRate)) Hz, period \(client.bufferSize)")
        if let program {
            logger.info("session '\(program.session.name)': \(program.session.stages.count) stages, \(Self.clock(program.session.duration))")
        }

        let meter = PeakMeter()
        let oscServer = try startOSC(current: current, client: client, meter: meter, logger: logger)
        defer { oscServer?.stop() }

        var status = StatusLine()
        var stopDeadline: Date?
        var nextMeter = Date()
        while true {
            usleep(20_000)
            client.collectRetiredEngines()
            if client.serverGone {
                if !quiet { status.finish() }
                logger.error("the JACK server shut down; exiting")
                throw ExitCode(1)
            }
            if current.host.sampleRate != client.sampleRate {
                // Prepare a new engine at the new rate off the process thread, then swap it in.
                logger.notice("sample rate changed to \(Int(client.sampleRate)) Hz; re-preparing the engine")
                let host = try EngineHost(sampleRate: client.sampleRate, values: current.host.values)
                client.replace(with: host)
                current.replace(with: host)
            }
            if Date() >= nextMeter {
                meter.record(current.host.status.pointee.takePeaks())
                nextMeter = Date().addingTimeInterval(0.05)
            }
            // A session is fed a second ahead; it ends with the fade-out finishing on its last frame.
            var sessionOver = false
            if let player, stopDeadline == nil {
                try player.send(through: current.host.frame + Int64(current.host.sampleRate), to: current.host)
                let fadeOut = Int64(try current.host.value(of: "/master/fade-out") * current.host.sampleRate)
                sessionOver = current.host.frame >= player.endFrame - fadeOut
            }
            let signals = SignalWatcher.received
            if signals >= 2 { break }  // a second Ctrl-C: stop now
            if (signals == 1 || sessionOver) && stopDeadline == nil {
                try current.host.stop()
                let fade = try current.host.value(of: "/master/fade-out")
                stopDeadline = Date().addingTimeInterval(fade + 1)
                if !quiet { status.finish() }
                logger.info("stopping: fading out over \(fade) s")
            }
            if let deadline = stopDeadline, current.host.isStopped || Date() > deadline { break }
            if !quiet && stopDeadline == nil { status.update(host: current.host, client: client, meter: meter) }
        }
        logger.info("stopped after \(String(format: "%.1f", Double(current.host.frame) / current.host.sampleRate)) s, \(client.xruns) xruns")
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    private func startOSC(current: CurrentEngine, client: JackClient, meter: PeakMeter, logger: Logger) throws -> OSCServer? {
        guard !osc.disabled else { return nil }
        let router = OSCRouter(
            host: { current.host },
            frame: { client.engineFrame(atUnixTime: $0.unixTime) },
            status: { StatusReport.arguments(host: current.host, client: client) })
        let server = try OSCServer(configuration: try osc.configuration(), router: router, host: { current.host },
                                   meter: meter, logger: logger)
        server.start()
        logger.info("OSC on udp://\(server.address)\(server.tcpAddress.map { " and tcp://\($0)" } ?? "")")
        return server
    }
}
