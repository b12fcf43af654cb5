import ArgumentParser
import EntrainAddressSpace
import EntrainAmbient
import EntrainControl
import EntrainCore
import EntrainEngine
import EntrainJACK
import EntrainLV2
import EntrainFiles
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
    @OptionGroup var hrv: HRVOptions
    @OptionGroup var inserts: InsertOptions
    @OptionGroup var dmx: DMXOptions
    @OptionGroup var midi: MIDIOptions
    @OptionGroup var link: LinkOptions
    @OptionGroup var pixels: PixelOptions
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
    @Flag(name: .customLong("no-restore"), help: "Neither start from the last-used settings nor save them at exit (the last-used file is not touched).")
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
        // Defaults, then the last-used settings, then a preset, then the command line: the
        // engine's values now, the other families' once they exist.
        let table = Engine.parameterTable
        var base = table.defaults
        var carried: [ControlChange] = []
        if !noRestore, let last = library.presets.lastUsedChanges() {
            for problem in last.problems { logger.warning("last-used settings: dropped \(problem)") }
            if let values = try? EngineFamily.fold(last.changes, into: base), (try? table.checkConstraints(values)) != nil {
                base = values
                carried += last.changes
            }
        }
        if let preset {
            let changes = try library.presets.changes(preset)
            base = try EngineFamily.fold(changes, into: base)
            carried += changes
        }
        let values = try light.apply(to: try engine.parameterValues(over: base, otherFamiliesHandled: true))
        if light.armStrobe { logger.warning("\(LightOptions.warning)") }
        SignalWatcher.install()

        // Under a session manager, nothing touches JACK before it opens a session for us.
        let managed: ManagedSession?
        do { managed = try ManagedSession.start(logger: logger, stop: { SignalWatcher.received > 0 }) } catch NSMClient.Failure.stopped { return }
        do {
            try run(managed: managed, logger: logger, library: library, carried: carried, values: values)
        } catch {
            managed?.failed(error)  // a manager waiting for the open's answer is told why
            throw error
        }
    }

    /// The run proper, once a session manager (if there is one) has opened a session for us:
    /// the rig, JACK, the engine and its families, then the control loop until the run ends.
    private func run(managed: ManagedSession?, logger: Logger, library: Library, carried: [ControlChange],
                     values: ParameterValues) throws {
        let (dmx, midi) = try Self.rigOptions(stored: managed?.stored, given: self.dmx, self.midi)
        // DMX and MIDI settings (preset, --set, their options), checked before JACK is touched.
        let lights = DMXFamily(dmx.settings), midiIn = MIDIFamily()
        let rigChanges = (carried + (try engine.setChanges())).filter { $0.address.hasPrefix(DMXFamily.prefix) || $0.address.hasPrefix(MIDIFamily.prefix) } + dmx.changes
        do {
            try lights.set(rigChanges.filter { $0.address.hasPrefix(DMXFamily.prefix) }, at: nil)
            try midiIn.set(rigChanges.filter { $0.address.hasPrefix(MIDIFamily.prefix) }, at: nil)
        } catch { throw ValidationError("\(error)") }
        let pixels = self.pixels.restoring(managed?.stored?.pixels)
        let pixelFamilies = try pixels.families()
        let pixelChanges = try PixelOptions.changes(carried: carried, given: try engine.setChanges(), families: pixelFamilies)
        do {
            for family in pixelFamilies { try family.set(pixelChanges.filter { $0.address.hasPrefix(PixelAddresses.prefix + family.spec.name + "/") }, at: nil) }
        } catch { throw ValidationError("\(error)") }
        let ledPorts = managed?.stored?.ledPorts ?? light.ledPorts, hapticCV = managed?.stored?.hapticCV ?? light.hapticCV
        let client = try JackClient(options: .init(name: managed?.open.clientID ?? name, server: server, ledPorts: ledPorts, hapticCV: hapticCV,
                                                   managed: managed != nil, midi: midi.settings,
                                                   midiFollowsTransport: midi.source == "transport", timebase: midi.timebase,
                                                   midiIn: midi.input, midiFollowsLink: midi.source == "link"), logger: logger)
        defer { client.close() }
        let linkSession = try LinkSession()
        client.attach(linkSession)
        let program = try session.program(sampleRate: client.sampleRate)
        let current = CurrentEngine(try EngineHost(sampleRate: client.sampleRate, values: program?.initialValues(values) ?? values,
                                                   ambientQuality: ambient.reverbQuality))
        // The ambient engine is always there (silent until played), so OSC and sessions can
        // start it; --ambient-preset starts it with the client.
        let ambientStart = try ambient.start(carrying: carried, changes: try engine.ambientChanges())
        let conductor = AmbientConductor(host: current.host, state: ambientStart.preset.state, settings: ambientStart.settings,
                                         sliders: KesshoSliders(ambientStart.preset), seed: ambient.seed,
                                         clock: AmbientConductor.liveClock(current.host, on: client))
        if let quality = ambient.quality { try conductor.set("reverbQuality", .string(quality)) }  // what is heard, fed back
        conductor.readExternalBeats(AmbientBeatSources.live(current: current, client: client))
        let ambientControl = AmbientController(conductor: conductor, presets: AmbientPresets.standard(),
                                               logger: logger)
        // Every value of the client, by family: what OSC, feedback, presets and sessions reach.
        let heart = HRVController(monitor: try hrv.monitor(logger: logger))
        defer { heart.monitor.stop() }
        let space = AddressSpace(StandardFamilies.make(engine: current, conductor: conductor, hrv: heart.monitor, dmx: lights, midi: midiIn,
                                                       link: linkSession) + pixelFamilies.map { $0 as any AddressFamily })
        heart.monitor.attach(space)
        if let program, let path = session.path {
            do {
                try ambientControl.presets.check(program.session, file: path)
                try space.checkPixelOutputs(of: program.session, file: path)
            } catch { throw ValidationError("\(error)") }
        }
        let fx = try inserts.start(host: current.host, space: space, restoring: carried, changes: try engine.setChanges()) {
            logger.warning("\($0)")
        }
        midiIn.attach(space)
        try space.set(try engine.setChanges().filter { $0.address.hasPrefix(HRVFamily.prefix) || $0.address.hasPrefix(LinkFamily.prefix) }, from: .person)
        if link.enabled { linkSession.enabled = true }
        let patterns = PatternPlayer(directories: Self.dataDirectories(patternsDirectory, kind: "patterns"))
        let transport = SessionTransport(engine: current, directories: Self.sessionDirectories(sessionsDirectory),
                                         patterns: patterns, ambient: ambientControl, space: space)
        if ambientStart.plays { try conductor.play() }
        let pump = AmbientPump(conductor, logger: logger)
        defer { pump.stop() }
        if let program {
            transport.load(program, source: session.path.map { URL(fileURLWithPath: $0) })
            try transport.play(atEngineFrame: 0)  // with the engine's first frame: the run equals a render
        } else if let playlist {
            try transport.loadPlaylist(playlist, from: library)
            try transport.play()
        }
        if let timer { try transport.setTimer(minutes: timer) }
        try managed?.restore(space: space, transport: transport) { file in
            let program = SessionProgram(try SessionOption.load(file), sampleRate: client.sampleRate)
            try space.checkPixelOutputs(of: program.session, file: file)
            return program
        }
        try client.activate(host: current.host)
        let fxChores = InsertHousekeeping(fx.chains) { client.outputLatencyChanged(of: current.host) }
        defer { fxChores.stop() }
        if autoconnect { try client.autoconnect() }
        let dmxSender = try dmx.sender(family: lights, client: client, current: current, logger: logger)
        dmxSender?.start()
        defer { dmxSender?.stop() }  // a blackout frame, after the fade-out
        let pixelSender = try pixels.sender(families: pixelFamilies, client: client, current: current, logger: logger)
        pixelSender?.start()
        defer { pixelSender?.stop() }  // black frames, after the fade-out
        let phraseBeats = midi.clock ? PhraseBeatFeed(conductor: conductor, client: client) : nil
        defer { phraseBeats?.stop() }
        // Every command and value by address: what OSC, the page and MIDI's bound buttons reach.
        let router = OSCRouter(
            host: { current.host },
            frame: { client.engineFrame(atUnixTime: $0.unixTime) },
            status: { StatusReport.arguments(host: current.host, client: client) },
            transport: transport, library: library,
            patterns: transport.patterns, space: space, handlers: [ambientControl, heart, FxCommands(fx.chains)])
        let midiInput = midi.input ? MIDIInput(family: midiIn, space: space, router: router, logger: logger) { client.takeMIDIInput($0) } : nil
        midiInput?.start()
        defer { midiInput?.stop() }
        logger.info("running as JACK client '\(client.name)' at \(Int(client.sampleRate)) Hz, period \(client.bufferSize)")
        if let program {
            logger.info("session '\(program.session.name)': \(counted(program.session.stages.count, "stage")), \(Self.clock(program.session.duration))")
        }

        let meter = PeakMeter()
        let oscServer = try makeOSC(router: router, current: current, client: client, meter: meter, transport: transport,
                                    heart: heart, logger: logger)
        defer { oscServer?.stop() }
        let heartPort = try hrv.listener(heart, osc: osc, logger: logger)
        defer { heartPort?.stop() }
        let discovery = try oscServer.flatMap { try startDiscovery(osc: $0, space: space, clientName: client.name, logger: logger) }
        defer { discovery?.0.stop(); discovery?.1?.stop() }
        // OSC answers only once OSCQuery listens too: a tool that heard /pong finds the tree.
        // (Its socket is bound already: what arrives meanwhile waits in the kernel's buffer.)
        if let oscServer {
            oscServer.start()
            logger.info("OSC on udp://\(oscServer.address)\(oscServer.tcpAddress.map { " and tcp://\($0)" } ?? "")")
        }
        let managedState = { [preset, ambient] () -> (NSMState, String) in
            let place = transport.place
            let playing = place.flatMap { p in p.file.map { NSMState.SessionPlace(file: $0.path, state: p.state.rawValue, position: p.position) } }
            return (NSMState(session: playing, preset: preset, ambientPreset: ambient.presetArgument, ledPorts: ledPorts, hapticCV: hapticCV,
                             dmx: dmx.arguments, midi: midi.arguments, pixels: pixels.absoluteRig),
                    library.presets.document(name: "session state", entries: space.presetSnapshot()))
        }
        managed?.opened(managedState)

        let loop = LiveControlLoop(
            current: current, backend: client, transport: transport, conductor: conductor, meter: meter,
            policy: .init(endsWithSession: program != nil || playlist != nil, endsWithTimer: timer != nil),
            logger: logger, strobeWarning: LightOptions.warning,
            prepare: { [ambient] rate, values in try EngineHost(sampleRate: rate, values: values, ambientQuality: ambient.reverbQuality) },
            saveSettings: { [noRestore] in if !noRestore { try library.presets.saveLastUsed(entries: heart.monitor.beforePacing(space.presetSnapshot())) } })
        defer { loop.finish() }  // the last-used settings, on every way out

        var status = StatusLine()
        var periods = PeriodWatch()
        var ending: LiveControlLoop.Ending?
        var hangups = 0
        while ending == nil {
            usleep(UInt32(LiveControlLoop.tickInterval * 1e6))
            let signals = SignalWatcher.received
            if signals >= 2 { break }  // a second signal: stop now
            if signals == 1 && !loop.isStopping { loop.requestStop(reason: "stopping") }
            if SignalWatcher.hangupCount != hangups {
                hangups = SignalWatcher.hangupCount
                reloadSession(transport, logger: logger)
            }
            ending = try loop.tick()
            periods.tick(client: client, logger: logger)
            linkSession.update()  // peers come and go
            managed?.tick(managedState)
            if quiet { continue }
            if ending == nil && !loop.isStopping { status.update(host: current.host, client: client, meter: meter) } else { status.finish() }
        }
        if let counts = oscServer?.statistics {
            logger.info("OSC: \(counts.messages) messages in \(counts.packets) packets, \(counts.errors) refused, \(counts.dropped) from senders not allowed, \(counts.rateLimited) over the rate limit")
        }
        loop.finish()
        logger.info("stopped after \(String(format: "%.1f", Double(current.host.frame) / current.host.sampleRate)) s, \(counted(client.xruns, "xrun"))")
        if let slowest = client.slowestPeriodSinceStart {
            logger.info("slowest period: \(PeriodWatch.describe(slowest, sampleRate: client.sampleRate))")
        }
    }

    /// SIGHUP: read the session file again (the one given with --session, else the last one
    /// loaded over OSC) and carry on in it from the same position, without a gap.
    private func reloadSession(_ transport: SessionTransport, logger: Logger) {
        guard let path = session.path ?? transport.sourceFile?.path else {
            logger.notice("SIGHUP: no session file to reload")
            return
        }
        do {
            try transport.reload(SessionProgram(try SessionOption.load(path), sampleRate: transport.sampleRate))
            logger.notice("SIGHUP: reloaded \(path)")
        } catch {
            logger.error("SIGHUP: could not reload \(path): \(error); the session goes on as it was")
        }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }

    /// The session folder given (default ./sessions), the user's and the installed ones.
    static func sessionDirectories(_ given: String) -> [URL] { dataDirectories(given, kind: "sessions") }

    /// The folder given, then $XDG_DATA_HOME/entrain/KIND, the system's and the installed copy.
    static func dataDirectories(_ given: String, kind: String) -> [URL] {
        DataDirectories().search(kind, local: given)
    }

    private func makeOSC(router: OSCRouter, current: CurrentEngine, client: JackClient, meter: PeakMeter, transport: SessionTransport,
                         heart: HRVController, logger: Logger) throws -> OSCServer? {
        guard !osc.disabled else { return nil }
        let server = try OSCServer(configuration: try osc.configuration(), router: router, host: { current.host },
                                   meter: meter, report: { transport.report() + heart.monitor.report() },
                                   beatTime: { client.unixTime(ofInputFrame: $0) }, logger: logger)
        return server
    }
}
