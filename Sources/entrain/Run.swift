import ArgumentParser
import EntrainAmbient
import EntrainControl
import EntrainEngine
import EntrainJACK
import Foundation
import Kessho
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the JACK client until Ctrl-C (which fades out, then exits).")

    @OptionGroup var engine: EngineOptions
    @OptionGroup var osc: OSCOptions
    @OptionGroup var session: SessionOption
    @OptionGroup var light: LightOptions
    @OptionGroup var ambient: AmbientOptions
    @Option(help: "JACK client name (JACK appends -01 … if it is taken).")
    var name = "entrain"
    @Option(help: "JACK server name (default: $JACK_DEFAULT_SERVER or 'default'). Never starts a server.")
    var server: String?
    @Flag(help: "Connect the audio outputs to the first two physical playback ports (ignored under NSM).")
    var autoconnect = false
    @Option(help: "Start from this preset (from $XDG_DATA_HOME/entrain/presets).")
    var preset: String?
    @Option(help: "Play this playlist (from $XDG_DATA_HOME/entrain/playlists); the run ends with it.")
    var playlist: String?
    @Flag(name: .customLong("no-restore"), help: "Do not start from the last-used settings.")
    var noRestore = false
    @Option(parsing: .unconditional, help: "Stop with a fade after this many minutes (5, 10, 15, 30, 60 or any up to 1440).")
    var timer: Double?
    @Option(name: .customLong("sessions-dir"), help: "Where /session/load finds sessions, besides $XDG_DATA_HOME/entrain/sessions.")
    var sessionsDirectory = "sessions"
    @Option(name: .customLong("patterns-dir"), help: "Where /haptic/pattern finds .ahap files, besides $XDG_DATA_HOME/entrain/patterns.")
    var patternsDirectory = "patterns"
    @Flag(help: "No status line.")
    var quiet = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        if let timer, !(timer.isFinite && timer > 0 && timer <= 24 * 60) {
            throw ValidationError("--timer must be more than 0 and at most 1440 minutes, got \(timer)")
        }
        guard !name.isEmpty, name.utf8.count <= JackClient.maximumNameLength else {
            throw ValidationError("--name must be 1 to \(JackClient.maximumNameLength) bytes long (JACK's limit), got \(name.utf8.count)")
        }
    }

    func run() throws {
        let logger = LogSetup.logger(level: logLevel)
        let library = Library()
        // Defaults, then the last-used settings, then a preset, then the command line.
        var base = Engine.parameterTable.defaults
        if !noRestore, let last = library.presets.lastUsed(over: base) { base = last }
        if let preset { base = try library.presets.load(preset, over: base) }
        let values = try light.apply(to: try engine.parameterValues(over: base, ambientHandled: true))
        if light.armStrobe { logger.warning("\(LightOptions.warning)") }
        SignalWatcher.install()

        let client = try JackClient(options: .init(name: name, server: server, ledPorts: light.ledPorts, hapticCV: light.hapticCV),
                                    logger: logger)
        defer { client.close() }
        let program = try session.program(sampleRate: client.sampleRate)
        let current = CurrentEngine(try EngineHost(sampleRate: client.sampleRate, values: program?.initialValues(values) ?? values,
                                                   ambientQuality: ambient.reverbQuality))
        // The ambient engine is always there (silent until played), so OSC and sessions can
        // start it; --ambient-preset starts it with the client.
        let ambientPreset = try ambient.preset(with: try engine.ambientChanges())
        let conductor = AmbientConductor(host: current.host, state: ambientPreset?.state ?? .defaults,
                                         sliders: ambientPreset.map(KesshoSliders.init) ?? KesshoSliders(), seed: ambient.seed,
                                         clock: AmbientConductor.liveClock(current.host))
        if let quality = ambient.quality { try conductor.set("reverbQuality", .string(quality)) }  // what is heard, fed back
        let ambientControl = AmbientController(conductor: conductor, presets: AmbientPresets(directories: AmbientPresets.standardDirectories()),
                                               logger: logger)
        if let program, let path = session.path {
            do { try ambientControl.presets.check(program.session, file: path) } catch { throw ValidationError("\(error)") }
        }
        let patterns = PatternPlayer(directories: Self.dataDirectories(patternsDirectory, kind: "patterns"))
        let transport = SessionTransport(engine: current, directories: Self.sessionDirectories(sessionsDirectory),
                                         patterns: patterns, ambient: ambientControl)
        if ambientPreset != nil { try conductor.play() }
        let pump = AmbientPump(conductor, logger: logger)
        defer { pump.stop() }
        if let program {
            transport.load(program)
            try transport.play(atEngineFrame: 0)  // with the engine's first frame: the run equals a render
        } else if let playlist {
            try transport.loadPlaylist(playlist, from: library)
            try transport.play()
        }
        let endsWithProgram = program != nil || playlist != nil
        if let timer { try transport.setTimer(minutes: timer) }
        try client.activate(host: current.host)
        if autoconnect { try client.autoconnect() }
        logger.info("running as JACK client '\(client.name)' at \(Int(client.sampleRate)) Hz, period \(client.bufferSize)")
        if let program {
            logger.info("session '\(program.session.name)': \(program.session.stages.count) stages, \(Self.clock(program.session.duration))")
        }

        let meter = PeakMeter()
        let oscServer = try startOSC(current: current, client: client, meter: meter, transport: transport, library: library,
                                     ambient: ambientControl, logger: logger)
        defer { oscServer?.stop() }

        var status = StatusLine()
        var stopDeadline: Date?
        let armIndex = try Engine.parameterTable.entry(for: "/led/arm").index
        var armed = light.armStrobe
        var warnedLag = false
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
                let host = try EngineHost(sampleRate: client.sampleRate, values: current.host.values,
                                          ambientQuality: ambient.reverbQuality)
                client.replace(with: host)
                current.replace(with: host)
                try conductor.move(to: host, clock: AmbientConductor.liveClock(host))
            }
            // Light can wait for sound but not overtake it: say so when its own path is slower.
            let lagFrames = client.lightLatency - client.playbackLatency
            let lag = Double(lagFrames) / client.sampleRate * 1000
            if lag > 45 && !warnedLag {
                logger.warning("the led port's playback path is \(Int(lag)) ms slower than the audio: light will lag sound (more than the 45 ms people notice)")
            }
            warnedLag = lag > 45
            let armedNow = current.host.values[armIndex] == 1
            if armedNow && !armed { logger.warning("\(LightOptions.warning)") }
            armed = armedNow
            if Date() >= nextMeter {
                meter.record(current.host.status.pointee.takePeaks())
                nextMeter = Date().addingTimeInterval(0.05)
            }
            // Sessions are fed a second ahead. A session or timer given on the command line ends
            // the run (its fade-out ends on time); ones started over OSC leave the client up.
            let event = stopDeadline == nil ? try transport.tick() : nil
            let ends = (event == .sessionFinished && endsWithProgram) || (event == .timerExpired && timer != nil)
            let signals = SignalWatcher.received
            if signals >= 2 { break }  // a second Ctrl-C: stop now
            if (signals == 1 || ends) && stopDeadline == nil {
                if !ends { try current.host.stop() }  // the transport started the fade itself
                let fade = try current.host.value(of: "/master/fade-out")
                stopDeadline = Date().addingTimeInterval(fade + 1)
                if !quiet { status.finish() }
                logger.info("\(ends ? (event == .timerExpired ? "timer expired" : "session finished") : "stopping"): fading out over \(fade) s")
            }
            if let deadline = stopDeadline, current.host.isStopped || Date() > deadline { break }
            if !quiet && stopDeadline == nil { status.update(host: current.host, client: client, meter: meter) }
        }
        if let counts = oscServer?.statistics {
            logger.info("OSC: \(counts.messages) messages in \(counts.packets) packets, \(counts.errors) refused, \(counts.dropped) from senders not allowed, \(counts.rateLimited) over the rate limit")
        }
        do { try library.presets.saveLastUsed(current.host.values) } catch { logger.warning("could not save the last-used settings: \(error)") }
        logger.info("stopped after \(String(format: "%.1f", Double(current.host.frame) / current.host.sampleRate)) s, \(client.xruns) xruns")
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    /// The session folder given (default ./sessions) and $XDG_DATA_HOME/entrain/sessions.
    static func sessionDirectories(_ given: String) -> [URL] { dataDirectories(given, kind: "sessions") }

    /// The folder given and $XDG_DATA_HOME/entrain/KIND.
    static func dataDirectories(_ given: String, kind: String) -> [URL] {
        let data = ProcessInfo.processInfo.environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return [URL(fileURLWithPath: given), data.appendingPathComponent("entrain/\(kind)")]
    }

    private func startOSC(current: CurrentEngine, client: JackClient, meter: PeakMeter, transport: SessionTransport,
                          library: Library, ambient: AmbientController, logger: Logger) throws -> OSCServer? {
        guard !osc.disabled else { return nil }
        let router = OSCRouter(
            host: { current.host },
            frame: { client.engineFrame(atUnixTime: $0.unixTime) },
            status: { StatusReport.arguments(host: current.host, client: client) },
            transport: transport, library: library,
            patterns: transport.patterns, ambient: ambient)
        let server = try OSCServer(configuration: try osc.configuration(), router: router, host: { current.host },
                                   meter: meter, report: { transport.report() },
                                   beatTime: { client.unixTime(ofInputFrame: $0) }, logger: logger)
        server.start()
        logger.info("OSC on udp://\(server.address)\(server.tcpAddress.map { " and tcp://\($0)" } ?? "")")
        return server
    }
}
