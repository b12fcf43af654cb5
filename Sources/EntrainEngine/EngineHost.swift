import EntrainAddressSpace
import EntrainCore
import EntrainDSP
import Synchronization

/// Owns one engine and everything it points at, and is the only way the control side talks to it.
///
/// Any control thread may call it (OSC, the run loop, sessions): a mutex serialises them in front
/// of the single-producer command ring. The process thread never takes it; it reaches the engine
/// through `engine` and the ring only.
// @unchecked: every mutable control-side field (values, scheduler, pattern slots, stop state) is
// read and written under `state`; the engine is reached by the process thread only through its
// pointer, the rings and the status atomics.
public final class EngineHost: @unchecked Sendable {
    public let sampleRate: Double
    public let table = Engine.parameterTable
    /// The values as last sent (what a query answers), guarding the ring's producer side too.
    private let state: Mutex<ParameterValues>
    /// The values as last sent; the engine glides towards them.
    public var values: ParameterValues { state.withLock { $0 } }
    public let engine: UnsafeMutablePointer<Engine>
    let ring: UnsafeMutablePointer<CommandRing>
    public let status: UnsafeMutablePointer<EngineStatus>
    /// Onsets and beats from the process thread, oldest first.
    let beatEvents: UnsafeMutablePointer<BeatEventRing>
    /// Rendered patterns for the engine; `patternsSent` counts the starts pushed (under `state`).
    let patterns: UnsafeMutablePointer<PatternSlots>
    private var patternsSent = 0
    /// Ambient conductor → ambient plugin (one producer: the conductor, under its own lock).
    let ambientEvents: UnsafeMutablePointer<AmbientEventRing>
    private var lastPatternSlot = -1
    /// Future commands, control side (guarded by `state`); fed into the ring as they fall due.
    private var scheduler = CommandScheduler()
    private let feedHorizon: Int64
    /// Whether the last transport command was a stop (guarded by `state`): resume then starts.
    private var stopRequested = false
    /// The values in force as of the engine's clock, and the changes sent for later frames
    /// that have not been reached yet (guarded by `state`).
    private var inForce: ParameterValues
    private var upcoming = UpcomingValues()

    /// `ambientQuality` (the reverb's structure) is fixed here, as the web fixes it per start.
    public init(sampleRate: Double, values: ParameterValues? = nil, ringCapacity: Int = 4096,
                ambientQuality: FDNReverb.Quality = .balanced) throws {
        let values = values ?? Engine.parameterTable.defaults
        try Engine.parameterTable.checkConstraints(values)
        self.sampleRate = sampleRate
        feedHorizon = Int64(Self.feedHorizonSeconds * sampleRate)
        state = Mutex(values)
        inForce = values
        ring = .allocate(capacity: 1)
        ring.initialize(to: CommandRing(capacity: ringCapacity))
        status = .allocate(capacity: 1)
        status.initialize(to: EngineStatus())
        beatEvents = .allocate(capacity: 1)
        beatEvents.initialize(to: BeatEventRing(capacity: 1024))
        patterns = .allocate(capacity: 1)
        patterns.initialize(to: PatternSlots())
        ambientEvents = .allocate(capacity: 1)
        ambientEvents.initialize(to: AmbientEventRing(capacity: 256))
        engine = .allocate(capacity: 1)
        engine.initialize(to: Engine(sampleRate: sampleRate, values: values, commands: ring, status: status,
                                     beatEvents: beatEvents, patterns: patterns, ambientEvents: ambientEvents,
                                     ambientQuality: ambientQuality))
    }

    deinit {
        engine.pointee.deallocate()
        engine.deinitialize(count: 1).deallocate()
        ring.deinitialize(count: 1).deallocate()
        status.deinitialize(count: 1).deallocate()
        beatEvents.deinitialize(count: 1).deallocate()
        patterns.deinitialize(count: 1).deallocate()
        ambientEvents.deinitialize(count: 1).deallocate()
    }

    /// Hand the ambient plugin an event. The caller (the ambient conductor) keeps frames in order.
    public func pushAmbient(_ event: AmbientEvent) throws {
        guard ambientEvents.pointee.push(event) else { throw EngineError.commandQueueFull }
    }

    /// Play a rendered pattern (intensity and sharpness, 1 kHz ticks) on the light's and the
    /// haptic's pattern sources from engine `frame` (nil: the next period). It is copied into a
    /// slot the engine is not reading; at most one start may be waiting at a time.
    public func playPattern(intensity: [Float], sharpness: [Float], at frame: Int64? = nil) throws {
        guard intensity.count == sharpness.count, !intensity.isEmpty else { throw EngineError.badPattern("empty pattern") }
        guard intensity.count <= PatternSlots.capacity else {
            throw EngineError.badPattern("longer than \(PatternSlots.capacity / 1000) s")
        }
        try state.withLock { _ in
            guard patternsSent - patterns.pointee.applied.load(ordering: .acquiring) < 1 else {
                throw EngineError.badPattern("another pattern is still starting (is the engine running?)")
            }
            let playing = patterns.pointee.playing.load(ordering: .relaxed)
            let slot = (0..<PatternSlots.count).first { $0 != playing && $0 != lastPatternSlot } ?? 0
            let base = slot * PatternSlots.capacity
            intensity.withUnsafeBufferPointer { (patterns.pointee.intensity + base).update(from: $0.baseAddress!, count: $0.count) }
            sharpness.withUnsafeBufferPointer { (patterns.pointee.sharpness + base).update(from: $0.baseAddress!, count: $0.count) }
            try push(.pattern(slot: slot, ticks: intensity.count, at: Command.frame(frame)))
            patternsSent += 1
            lastPatternSlot = slot
        }
    }

    /// Stop the playing pattern at `frame` (nil: the next period).
    public func stopPattern(at frame: Int64? = nil) throws {
        try state.withLock { _ in
            try push(.stopPattern(at: Command.frame(frame)))
            patternsSent += 1
        }
    }

    /// The slot the engine plays (-1: none).
    public var isPlayingPattern: Bool { patterns.pointee.playing.load(ordering: .relaxed) >= 0 }

    /// The next onset or beat the process thread published, oldest first (one consumer only).
    public func nextBeatEvent() -> BeatEvent? { beatEvents.pointee.popFirst() }

    /// Frames the engine has rendered (its clock), as last published.
    public var frame: Int64 { Int64(status.pointee.framesRendered.load(ordering: .relaxed)) }

    /// One change of a batch: parameter `index` of the table to `value`, a number its
    /// descriptor has already checked (the address space's door does that, once).
    public struct Change: Sendable {
        public let index: Int
        public let value: Double
        public let glide: Double?
        public let exponential: Bool?
        public init(_ index: Int, _ value: Double, glide: Double? = nil, exponential: Bool? = nil) {
            self.index = index
            self.value = value
            self.glide = glide
            self.exponential = exponential
        }
    }

    /// The longest glide a change may ask for: a week, the longest stage a session may hold.
    public static let longestGlideSeconds = 7 * 24 * 3600.0

    /// Several changes that belong together, all at `frame` (engine clock; nil or past: the
    /// start of the next period): the rules between parameters are checked on the final state,
    /// then the changes are sent; if any is refused, none is. `glide` nil = the parameter's own
    /// smoothing, `exponential` nil = its own curve.
    public func set(_ changes: [Change], at frame: Int64? = nil) throws {
        try state.withLock { values in
            var candidate = values
            var commands: [Command] = []
            for change in changes {
                let descriptor = table.entries[change.index].descriptor
                candidate[change.index] = change.value
                let seconds = change.glide ?? descriptor.glideSeconds ?? 0
                guard seconds.isFinite, seconds >= 0, seconds <= Self.longestGlideSeconds else {
                    throw ControlError(descriptor.address, "glide time must be 0 to \(Int(Self.longestGlideSeconds)) seconds")
                }
                commands.append(.set(change.index, to: change.value, at: Command.frame(frame), glideFrames: Int((seconds * sampleRate).rounded()),
                                     exponential: change.exponential ?? descriptor.glidesExponentially))
            }
            try table.checkConstraints(candidate)
            for command in commands { try push(command) }
            values = candidate
            for change in changes { note(change.index, change.value, at: frame) }
        }
    }

    /// Fade every output to silence over the configured fade-out; `isStopped` turns true after.
    public func stop(at frame: Int64? = nil) throws {
        let seconds = try value(of: "/master/fade-out")
        try state.withLock { _ in
            try push(.stop(fadeFrames: max(1, Int(seconds * sampleRate)), at: Command.frame(frame)))
            stopRequested = true
        }
    }

    public var isStopped: Bool { status.pointee.stopped.load(ordering: .acquiring) }

    /// Fade back in after `stop`, over the configured fade-in, at `frame` (or now).
    public func start(at frame: Int64? = nil) throws {
        let seconds = try value(of: "/master/fade-in")
        try state.withLock { _ in
            try push(.start(fadeFrames: max(1, Int(seconds * sampleRate)), at: Command.frame(frame)))
            stopRequested = false
        }
    }

    /// Whether a panic is in force (as requested: the engine applies it at its next period).
    public var isPanicked: Bool { status.pointee.panicRequested.load(ordering: .relaxed) }

    /// Silence and blackout until `resume`: light and haptics go dark from the engine's next
    /// period, the audio pairs fade out over `panicFadeSeconds` (no click) and are silent once
    /// the limiter's look-ahead has passed. A flag the engine reads every period, never a
    /// queued command, so nothing a sender has queued can delay it. Never fails.
    public func panic() { status.pointee.panicRequested.store(true, ordering: .relaxed) }

    /// The anti-click fade of a panic, in seconds.
    public static let panicFadeSeconds = 0.01

    /// Undo a panic, fading back in over the configured fade-in; after a stop (a session's end,
    /// a timer, /session/stop) it also starts the output again, so stop then resume always
    /// brings the sound back.
    public func resume() throws {
        status.pointee.panicRequested.store(false, ordering: .relaxed)
        if state.withLock({ _ in stopRequested }) { try start() }
    }

    public func send(_ command: Command) throws {
        try state.withLock { _ in try push(command) }
    }

    /// Commands that wait on the control side for their frame (time-tagged far ahead).
    public var scheduledCount: Int { state.withLock { _ in scheduler.count } }
    /// Most commands that may wait for their time at once; past it a command is refused.
    public static var maximumScheduled: Int { CommandScheduler.capacity }

    /// Hand the ring the scheduled commands that fall due within `feedHorizonSeconds`. The live
    /// control loop and the offline renderer call it every few milliseconds / every block;
    /// every send calls it too.
    public func feed() { state.withLock { _ in feedLocked() } }

    /// How far ahead of the engine's clock a command enters the ring: far longer than the
    /// control loop's tick, far shorter than any wait a user may ask for.
    public static let feedHorizonSeconds = 0.5

    /// Call with the lock held: the ring has one producer at a time. Commands due later than the
    /// feed horizon wait in the scheduler; the rest go to the ring behind what is already due.
    private func push(_ command: Command) throws {
        if command.frame > frame + feedHorizon {
            guard !scheduler.isFull else { throw EngineError.tooManyScheduled }
            scheduler.insert(command)
            return
        }
        feedLocked()
        guard ring.pointee.push(command) else { throw EngineError.commandQueueFull }
    }

    private func feedLocked() {
        let horizon = frame + feedHorizon
        while let command = scheduler.takeFirst(through: horizon) {
            guard ring.pointee.push(command) else {
                scheduler.putBack(command)
                return
            }
        }
    }

    public func value(of address: String) throws -> Double { values[try table.entry(for: address).index] }

    /// What plays now: the values as of the engine's clock. A change time-tagged for a later
    /// frame is in `values` (what was sent, which checks the next change) at once, and here
    /// from its frame on: what queries, OSCQuery and feedback report.
    public var valuesInForce: ParameterValues {
        state.withLock { _ in
            upcoming.apply(through: frame, to: &inForce)
            return inForce
        }
    }

    public func valueInForce(of address: String) throws -> Double { valuesInForce[try table.entry(for: address).index] }

    /// Call with the lock held: `value` for parameter `index` from `frame` on (nil: now).
    private func note(_ index: Int, _ value: Double, at frame: Int64?) {
        if let frame, frame > self.frame {
            upcoming.add(index, value, at: frame)
        } else {
            upcoming.apply(through: self.frame, to: &inForce)
            inForce[index] = value
        }
    }
}

public enum EngineError: Error, CustomStringConvertible {
    case commandQueueFull
    case tooManyScheduled
    case badPattern(String)
    public var description: String {
        switch self {
        case .commandQueueFull: "the engine's command queue is full (is the engine running?)"
        case .tooManyScheduled:
            "more than \(CommandScheduler.capacity) commands are waiting for their time tags; this one was refused"
        case .badPattern(let why): "cannot play the pattern: \(why)"
        }
    }
}
