import ArgumentParser
import EntrainEngine
import EntrainJACK
import Foundation
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the JACK client until Ctrl-C (which fades out, then exits).")

    @OptionGroup var engine: EngineOptions
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
        var host = try EngineHost(sampleRate: client.sampleRate, values: values)
        try client.activate(host: host)
        if autoconnect { try client.autoconnect() }
        logger.info("running as JACK client '\(client.name)' at \(Int(client.sampleRate)) Hz, period \(client.bufferSize)")

        var status = StatusLine()
        var stopDeadline: Date?
        while true {
            usleep(20_000)
            client.collectRetiredEngines()
            if client.serverGone {
                if !quiet { status.finish() }
                logger.error("the JACK server shut down; exiting")
                throw ExitCode(1)
            }
            if Double(host.sampleRate) != client.sampleRate {
                // Prepare a new engine at the new rate off the process thread, then swap it in.
                logger.notice("sample rate changed to \(Int(client.sampleRate)) Hz; re-preparing the engine")
                host = try EngineHost(sampleRate: client.sampleRate, values: host.values)
                client.replace(with: host)
            }
            let signals = SignalWatcher.received
            if signals >= 2 { break }  // a second Ctrl-C: stop now
            if signals == 1 && stopDeadline == nil {
                try host.stop()
                let fade = try host.value(of: "/master/fade-out")
                stopDeadline = Date().addingTimeInterval(fade + 1)
                if !quiet { status.finish() }
                logger.info("stopping: fading out over \(fade) s")
            }
            if let deadline = stopDeadline, host.isStopped || Date() > deadline { break }
            if !quiet && stopDeadline == nil { status.update(host: host, client: client) }
        }
        logger.info("stopped after \(String(format: "%.1f", Double(host.frame) / host.sampleRate)) s, \(client.xruns) xruns")
    }
}
