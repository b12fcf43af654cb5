import EntrainAddressSpace
import EntrainEngine
import Foundation
import Synchronization

/// Plays session programs on the live engine: load, play, pause, stop, seek, and a sleep timer.
/// Driven by OSC and by the run loop's `tick()`; a mutex keeps the two in step.
public final class SessionTransport: Sendable {
    public enum State: String, Sendable { case idle, playing, paused, finished }

    /// What a tick noticed.
    public enum Event: Equatable, Sendable { case sessionFinished, timerExpired }

    struct Status {
        var program: SessionProgram?
        var player: SessionPlayer?
        var state = State.idle
        /// Session frame where a pause happened (or the next play resumes).
        var position: Int64 = 0
        /// Engine frame at which the timer's fade-out must be over.
        var timerEnd: Int64?
        /// Where the session and the timer stood when the audio server went away.
        var away: Away?
        var source: URL?
    }

    struct Away {
        var position: Double?
        var timerLeft: Double?
    }

    private let engine: CurrentEngine
    /// Where stages' patterns (`"haptic": {"pattern": …}`) come from; nil: they are skipped.
    public let patterns: PatternPlayer?
    /// The ambient engine, for stages' `"ambient"` blocks; nil: they are skipped.
    public let ambient: AmbientController?
    /// The door every value of a program goes through, the engine's included (a file's door).
    public let space: AddressSpace
    /// Where /session/load may read from; nothing outside them is ever opened.
    public let directories: [URL]
    private let status = Mutex(Status())
    /// Seconds to reach a new state on seek, pause and resume: short enough to feel immediate,
    /// long enough not to click.
    static let settle = 0.05

    public init(engine: CurrentEngine, directories: [URL], patterns: PatternPlayer? = nil, ambient: AmbientController? = nil,
                space: AddressSpace? = nil) {
        self.engine = engine
        self.space = space ?? AddressSpace([EngineFamily(engine)])
        self.patterns = patterns
        self.ambient = ambient
        self.directories = directories.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
    }

    public var state: State { status.withLock { $0.state } }

    // MARK: - Loading

    /// Load a session by name ("theta-meditation", "theta-meditation.json" or "sub/x.json")
    /// from the session directories. Absolute paths and anything resolving outside them are refused.
    public func load(_ name: String) throws {
        let url = try files.resolve(name)
        load(SessionProgram(try session(named: name), sampleRate: engine.host.sampleRate))
        status.withLock { $0.source = url }
    }

    /// The file the loaded session came from, when loaded by name (what SIGHUP reloads).
    public var sourceFile: URL? { status.withLock { $0.source } }

    /// The rate programs are compiled at: the current engine's.
    public var sampleRate: Double { engine.host.sampleRate }

    /// A session from the session directories, decoded (not loaded).
    public func session(named name: String) throws -> Session {
        let files = self.files
        let url = try files.resolve(name)
        let session = try SessionDecoder.load(url, label: files.label(url)).session
        try ambient?.presets.check(session, file: files.label(url))
        try space.checkPixelOutputs(of: session, file: files.label(url))
        return session
    }

    /// Load a playlist from `library` as one session program (idle until `play`).
    public func loadPlaylist(_ name: String, from library: Library) throws {
        let session = try library.playlists.session(name, presets: library.presets) { try self.session(named: $0) }
        load(SessionProgram(session, sampleRate: engine.host.sampleRate))
    }

    /// Take an already compiled program (idle until `play`); `source` is the file it came from.
    public func load(_ program: SessionProgram, source: URL? = nil) {
        status.withLock { $0 = Status(program: program, player: nil, state: .idle, position: 0, timerEnd: $0.timerEnd, source: source) }
    }

    /// The session's file, state and position in seconds (what a session manager's save keeps).
    public var place: (file: URL?, state: State, position: Double)? {
        status.withLock { s in
            guard let program = s.program else { return nil }
            var position = s.position
            if s.state == .playing, let player = s.player { position = max(0, engine.host.frame - player.startFrame) }
            return (s.source, s.state, Double(position) / program.sampleRate)
        }
    }

    var files: ConfinedFiles { ConfinedFiles(directories: directories, fileExtension: "json", kind: "session") }

    // MARK: - Transport

    /// Start (from the beginning, or where a pause left off), fading in if the output was stopped.
    /// `atEngineFrame` 0 starts a session together with the engine (command-line sessions, so
    /// the live run equals a render); otherwise it starts now.
    public func play(atEngineFrame start: Int64? = nil) throws {
        try status.withLock { s in
            guard let program = s.program else { throw TransportError.nothingLoaded }
            let host = engine.host
            if host.isStopped { try host.start() }
            if let start {
                s.player = player(program, startFrame: start)
                s.position = 0
            } else {
                let position = s.state == .paused ? s.position : (s.state == .finished ? 0 : s.position)
                try jump(to: position, program: program, host: host, status: &s)
            }
            s.state = .playing
            try s.player?.send(through: host.frame + Int64(host.sampleRate), to: host)
        }
    }

    /// Freeze where the session is: every parameter settles on its value of this moment.
    public func pause() throws {
        try status.withLock { s in
            guard s.state == .playing, let program = s.program, let player = s.player else { throw TransportError.notPlaying }
            let host = engine.host
            let position = max(0, host.frame - player.startFrame)
            try space.set(program.state(at: position).compactMap { EngineFamily.change($0.address, number: $0.value, glide: Self.settle) },
                          from: .file)
            s.player = nil
            s.position = position
            s.state = .paused
        }
    }

    /// End the session with a fade-out; the client stays up, silent, until something plays.
    public func stop() throws {
        try status.withLock { s in
            s.player = nil
            s.position = 0
            s.state = .idle
            try engine.host.stop()
        }
    }

    /// Go to `seconds` into the session: its state there is reached within 50 ms (slides under
    /// way continue to their targets), then the program goes on from there.
    public func seek(_ seconds: Double) throws {
        try status.withLock { s in
            guard let program = s.program else { throw TransportError.nothingLoaded }
            let total = Double(program.frames) / program.sampleRate
            guard seconds.isFinite, seconds >= 0, seconds < total else { throw TransportError.seekOutOfRange(seconds, total) }
            let position = Int64((seconds * program.sampleRate).rounded())
            if s.state == .playing {
                try jump(to: position, program: program, host: engine.host, status: &s)
            } else {
                s.position = position
            }
        }
    }

    /// Move the live engine to the program's state at `position` and continue from there.
    /// `only`: move just these addresses (the rest keep what they have now).
    private func jump(to position: Int64, program: SessionProgram, host: EngineHost, status s: inout Status,
                      only: Set<String>? = nil) throws {
        let now = host.frame
        let arrive = now + Int64(Self.settle * host.sampleRate)
        let state = program.state(at: position).filter { only?.contains($0.address) ?? true }
        try space.set(state.compactMap { EngineFamily.change($0.address, number: $0.value, glide: Self.settle) }, at: now, from: .file)
        if only == nil { try space.set(program.familyState(at: position), at: now, from: .file) }  // pixels, DMX, …: the stage's settings
        let underway = state.filter { $0.remaining > Self.settle }
        if !underway.isEmpty {
            try space.set(underway.compactMap { EngineFamily.change($0.address, number: $0.target, glide: $0.remaining - Self.settle, exponential: $0.exponential) },
                          at: arrive, from: .file)
        }
        s.player = player(program, startFrame: now - position, skipThrough: position)
        s.position = position
    }

    /// A player wired to this transport's pattern and ambient sources.
    private func player(_ program: SessionProgram, startFrame: Int64, skipThrough: Int64? = nil) -> SessionPlayer {
        let player = SessionPlayer(program: program, startFrame: startFrame, skipThrough: skipThrough)
        player.patterns = patterns
        player.ambient = ambient
        player.space = space
        return player
    }

    // MARK: - Timer

    /// Stop with a fade after `minutes` (the fade-out ends then).
    public func setTimer(minutes: Double) throws {
        guard minutes.isFinite, minutes > 0, minutes <= 24 * 60 else { throw TransportError.badTimer(minutes) }
        let host = engine.host
        status.withLock { $0.timerEnd = host.frame + Int64(minutes * 60 * host.sampleRate) }
    }

    public func cancelTimer() { status.withLock { $0.timerEnd = nil } }

    /// Put a new version of the loaded session in its place without a gap (SIGHUP after editing
    /// the file): playing, it goes on from the same position in the new program (the last frame,
    /// if the new one is shorter); paused or idle, it waits there.
    public func reload(_ program: SessionProgram) throws {
        try space.checkPixelOutputs(of: program.session, file: sourceFile?.path ?? program.session.name)
        try status.withLock { s in
            let host = engine.host
            var position = s.position
            if s.state == .playing, let player = s.player { position = max(0, host.frame - player.startFrame) }
            let seconds = Double(position) / (s.program?.sampleRate ?? program.sampleRate)
            s.program = program
            let frame = max(0, min(Int64((seconds * program.sampleRate).rounded()), program.frames - 1))
            if s.state == .playing {
                try jump(to: frame, program: program, host: host, status: &s)
            } else {
                s.position = s.state == .paused ? frame : 0
            }
        }
    }

    // MARK: - The audio server away

    /// The audio server went away: remember where the session and the timer stand (seconds) and
    /// stop feeding the engine, which does not run meanwhile.
    public func suspend() {
        status.withLock { s in
            guard s.away == nil else { return }
            let host = engine.host
            var away = Away(timerLeft: s.timerEnd.map { Double($0 - host.frame) / host.sampleRate })
            if s.state == .playing, let player = s.player, let program = s.program {
                away.position = Double(max(0, host.frame - player.startFrame)) / program.sampleRate
                s.player = nil
            }
            s.away = away
        }
    }

    /// Back after `seconds` away, on the engine now current (maybe at another rate): the session
    /// and the timer go on where the wall clock says they would be (a session over by then ends
    /// at once, with its fade). Only what the program changed while away moves: a value the user
    /// set over the session's own stays as it was.
    public func resume(afterAway seconds: Double) throws {
        try status.withLock { s in
            guard let away = s.away else { return }
            s.away = nil
            let host = engine.host
            if let left = away.timerLeft { s.timerEnd = host.frame + Int64(((left - seconds) * host.sampleRate).rounded()) }
            guard let position = away.position, var program = s.program else { return }
            if program.sampleRate != host.sampleRate {
                program = SessionProgram(program.session, sampleRate: host.sampleRate)
                s.program = program
            }
            let left = Int64((position * program.sampleRate).rounded())
            let frame = max(0, min(Int64(((position + seconds) * program.sampleRate).rounded()), program.frames - 1))
            let moved = Set(program.changes.filter { $0.frame > left && $0.frame <= frame }.map(\.address))
            try jump(to: frame, program: program, host: host, status: &s, only: moved)
        }
    }

    // MARK: - Time passing

    /// From the run loop: send what is due in the next second, notice the end of the session
    /// and of the timer (both start the fade-out so it ends on time).
    public func tick() throws -> Event? {
        try status.withLock { s in
            let host = engine.host
            let fadeOut = Int64(try host.value(of: "/master/fade-out") * host.sampleRate)
            if let end = s.timerEnd, host.frame >= end - fadeOut {
                s.timerEnd = nil
                s.player = nil
                if s.state == .playing { s.state = .idle }
                try host.stop()
                return .timerExpired
            }
            guard s.state == .playing, let player = s.player else { return nil }
            try player.send(through: host.frame + Int64(host.sampleRate), to: host)
            if host.frame >= player.endFrame - fadeOut {
                s.player = nil
                s.state = .finished
                s.position = 0
                try host.stop()
                return .sessionFinished
            }
            return nil
        }
    }

    /// The transport's state as OSC messages: /session/state, /session/name, /session/position,
    /// /session/stage, /session/remaining, /timer/remaining.
    public func report() -> [OSCMessage] {
        status.withLock { s in
            let host = engine.host
            var out = [OSCMessage("/session/state", [.string(s.state.rawValue)])]
            if let program = s.program {
                let position = s.state == .playing ? max(0, host.frame - (s.player?.startFrame ?? host.frame)) : s.position
                let stage = program.stage(at: position)
                let total = Double(program.frames) / program.sampleRate
                let seconds = Double(position) / program.sampleRate
                out += [OSCMessage("/session/name", [.string(program.session.name)]),
                        OSCMessage("/session/position", [.float(Float(seconds))]),
                        OSCMessage("/session/stage", [.int32(Int32(stage + 1)), .string(program.session.stages[stage].name)]),
                        OSCMessage("/session/remaining", [.float(Float(max(0, total - seconds)))])]
            }
            let timer = s.timerEnd.map { Float(max(0, Double($0 - host.frame) / host.sampleRate)) } ?? -1
            out.append(OSCMessage("/timer/remaining", [.float(timer)]))
            return out
        }
    }
}

public enum TransportError: Error, CustomStringConvertible {
    case nothingLoaded
    case notPlaying
    case seekOutOfRange(Double, Double)
    case badTimer(Double)

    public var description: String {
        switch self {
        case .nothingLoaded: "no session loaded (/session/load s:name first)"
        case .notPlaying: "no session is playing"
        case .seekOutOfRange(let s, let total): "cannot seek to \(s) s: the session is \(String(format: "%.1f", total)) s long"
        case .badTimer(let m): "timer must be more than 0 and at most 1440 minutes (got \(m))"
        }
    }
}
