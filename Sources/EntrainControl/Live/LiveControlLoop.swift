import EntrainAmbient
import EntrainCore
import EntrainEngine
import Foundation
import Logging

/// The live client's control loop, one `tick()` every few tens of milliseconds: it feeds the
/// engine what falls due (time-tagged commands, session stages), re-prepares the engine when
/// the server's sample rate changes, watches the server, warns about what a person should know
/// (light lagging the sound, the strobe armed), keeps the meters, and runs the stop policy
/// (Ctrl-C, a command-line session or timer ending the run, each with its fade-out).
///
/// When the server goes away the run goes on without it (OSC answers, every value is kept) and
/// the loop looks for a server of the same name every `retryInterval`; when one is back the
/// client registers again and carries on where the wall clock says it would be.
///
/// The executable only parses arguments, builds this and calls `tick()` until it says the run
/// is over; `finish()` saves the last-used settings on every way out.
public final class LiveControlLoop {
    /// Why the run is over.
    public enum Ending: Equatable, Sendable {
        /// A stop (signal) faded out, or a second signal cut it short.
        case stopped
        case sessionFinished
        case timerExpired
    }

    public struct Policy: Sendable {
        /// A session or playlist given on the command line ends the run with it.
        public var endsWithSession = false
        /// A timer given on the command line ends the run (one set over OSC only stops the sound).
        public var endsWithTimer = false
        public init(endsWithSession: Bool = false, endsWithTimer: Bool = false) {
            self.endsWithSession = endsWithSession
            self.endsWithTimer = endsWithTimer
        }
    }

    /// How often the client's run loop ticks. Nothing in a tick needs more often: the engine is
    /// fed half a second ahead, meters are kept every `meterInterval`, a signal's stop waits no
    /// longer than this. (It was 20 ms: 50 wake-ups a second for nothing.)
    public static let tickInterval = 0.05

    /// People notice light and sound apart beyond about 45 ms.
    static let noticeableLagMilliseconds = 45.0
    static let meterInterval = 0.05
    /// A stop is over this long after its fade at the latest (signals: exit within fade + 0.5 s).
    static let stopMargin = 0.3
    /// How often a server that went away is looked for again.
    public static let retryInterval = 1.5

    public let current: CurrentEngine
    let backend: AudioBackend
    let transport: SessionTransport
    let conductor: AmbientConductor?
    let meter: PeakMeter
    let policy: Policy
    let logger: Logger
    /// A new engine at a sample rate, with the given values (the ambient quality is the caller's).
    let prepare: (Double, ParameterValues) throws -> EngineHost
    /// Saves the last-used settings (every family's, in the client).
    let saveSettings: () throws -> Void
    let strobeWarning: String

    private var stopDeadline: Date?
    private var stopReason = Ending.stopped
    private var warnedLag = false
    private var armed: Bool
    private var nextMeter = Date()
    private var saved = false
    /// When the server went away (nil while it is up), and when to look for it next.
    private var awaySince: Date?
    private var nextRetry = Date.distantPast
    /// The last refusal of a session change logged (the same cause is said once).
    private var lastRefusal: String?

    public init(current: CurrentEngine, backend: AudioBackend, transport: SessionTransport, conductor: AmbientConductor?,
                meter: PeakMeter, policy: Policy, logger: Logger, strobeWarning: String,
                prepare: @escaping (Double, ParameterValues) throws -> EngineHost,
                saveSettings: @escaping () throws -> Void) {
        self.current = current
        self.backend = backend
        self.transport = transport
        self.conductor = conductor
        self.meter = meter
        self.policy = policy
        self.logger = logger
        self.strobeWarning = strobeWarning
        self.prepare = prepare
        self.saveSettings = saveSettings
        armed = (try? current.host.value(of: "/led/arm")) == 1
    }

    /// A stop has been asked for and is fading out.
    public var isStopping: Bool { stopDeadline != nil }

    /// One round. Returns how the run ended, or nil while it goes on.
    public func tick(now: Date = Date()) throws -> Ending? {
        let host = current.host
        host.feed()
        backend.collectRetiredEngines()
        if backend.serverGone || awaySince != nil {
            try lookForTheServer(now: now)
            // Nothing to fade while the engine does not run: a stop ends the run at once.
            if awaySince != nil { return stopDeadline != nil ? stopReason : nil }
        }
        backend.rememberConnections(now: now)
        if host.sampleRate != backend.sampleRate { try reprepare(from: host) }
        warnAboutLightLag()
        warnWhenArmed()
        if now >= nextMeter {
            meter.record(current.host.status.pointee.takePeaks())
            nextMeter = now.addingTimeInterval(Self.meterInterval)
        }
        if let deadline = stopDeadline {
            return current.host.isStopped || now > deadline ? stopReason : nil
        }
        // Sessions are fed a second ahead. A session or timer given on the command line ends
        // the run (the transport starts its fade so it ends on time); ones started over OSC
        // leave the client up.
        switch transportTick() {
        case .sessionFinished? where policy.endsWithSession: beginEnding(.sessionFinished, now: now)
        case .timerExpired? where policy.endsWithTimer: beginEnding(.timerExpired, now: now)
        default: break
        }
        return nil
    }

    /// The transport's round. A change a family refuses when its time comes (its queue full, a
    /// value a check at load could not foresee) is that change lost, not the run: the transport
    /// has already moved past it, so the session goes on with the next one. Said once per cause.
    private func transportTick() -> SessionTransport.Event? {
        do {
            return try transport.tick()
        } catch {
            let said = "\(error)"
            if said != lastRefusal {
                logger.error("a session change was refused when its time came: \(said); the session goes on without it")
            }
            lastRefusal = said
            return nil
        }
    }

    /// Ctrl-C or SIGTERM: fade out over the fade-out time. If the fade cannot be
    /// queued, panic instead (a flag, never refused), so the run still ends silent.
    public func requestStop(now: Date = Date(), reason: String = "stopping") {
        guard stopDeadline == nil else { return }
        do {
            try current.host.stop()
        } catch {
            logger.error("could not fade out (\(error)); silencing with a panic instead")
            current.host.panic()
        }
        beginEnding(.stopped, now: now, reason: reason)
    }

    /// Save the last-used settings (once, whatever path the run took to its end).
    public func finish() {
        guard !saved else { return }
        saved = true
        do { try saveSettings() } catch { logger.warning("could not save the last-used settings: \(error)") }
    }

    private func beginEnding(_ ending: Ending, now: Date, reason: String? = nil) {
        let fade = (try? current.host.value(of: "/master/fade-out")) ?? 0
        stopDeadline = now.addingTimeInterval(fade + Self.stopMargin)
        stopReason = ending
        let why = reason ?? (ending == .timerExpired ? "timer expired" : "session finished")
        logger.info("\(why): fading out over \(fade) s")
    }

    /// The server went away (or is still away): keep the state, and every `retryInterval` try a
    /// server of the same name. On its return the engine is re-prepared if its rate changed
    /// (before it runs a cycle), the ports run again, the session and the timer jump to where the
    /// wall clock says and the ambient engine picks up its phrase grid.
    private func lookForTheServer(now: Date) throws {
        if awaySince == nil {
            awaySince = now
            transport.suspend()
            logger.error("the JACK server went away; carrying on without it (OSC answers, every value is kept) and looking for it every \(Self.retryInterval) s")
        }
        guard let since = awaySince, now >= nextRetry else { return }
        nextRetry = now.addingTimeInterval(Self.retryInterval)
        guard backend.reopen() else { return }
        let old = current.host
        let reprepared = old.sampleRate != backend.sampleRate
        if reprepared { try reprepare(from: old) }
        try backend.restart()
        awaySince = nil
        let away = Date().timeIntervalSince(since)
        try transport.resume(afterAway: away)
        if !reprepared { try conductor?.move(to: old, clock: AmbientConductor.liveClock(old, on: backend)) }
        logger.notice("the JACK server is back after \(String(format: "%.1f", away)) s: ports, metadata and connections restored, at \(Int(backend.sampleRate)) Hz")
    }

    /// The server is away (the status says so).
    public var serverAway: Bool { awaySince != nil }

    /// Prepare a new engine at the new rate off the process thread, then swap it in; a panic
    /// in force carries over, and the ambient engine resumes on its grid.
    private func reprepare(from old: EngineHost) throws {
        logger.notice("sample rate changed to \(Int(backend.sampleRate)) Hz; re-preparing the engine")
        let host = try prepare(backend.sampleRate, old.values)
        if old.isPanicked { host.panic() }
        backend.replace(with: host)
        current.replace(with: host)
        try conductor?.move(to: host, clock: AmbientConductor.liveClock(host, on: backend))
    }

    /// Light can wait for sound but not overtake it: say so when its own path is slower.
    private func warnAboutLightLag() {
        let lag = Double(backend.lightLatency - backend.playbackLatency) / backend.sampleRate * 1000
        if lag > Self.noticeableLagMilliseconds && !warnedLag {
            logger.warning("the led port's playback path is \(Int(lag)) ms slower than the audio: light will lag sound (more than the \(Int(Self.noticeableLagMilliseconds)) ms people notice)")
        }
        warnedLag = lag > Self.noticeableLagMilliseconds
    }

    private func warnWhenArmed() {
        let armedNow = (try? current.host.value(of: "/led/arm")) == 1
        if armedNow && !armed { logger.warning("\(strobeWarning)") }
        armed = armedNow
    }
}
