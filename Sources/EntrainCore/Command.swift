/// A change for the engine, stamped with the frame at which it applies.
/// Plain value type: it crosses from the control thread to the process thread through a ring.
/// Each kind carries its own typed fields (no pointer hidden in a number, no number in another's
/// bits); every field is a plain value or a raw pointer prepared off the process thread, so a
/// command is trivially copyable: the ring copies its bytes, nothing is retained or allocated.
/// (Panic is not a command: it is a flag the engine reads every period, see `EngineStatus`.)
public struct Command: Sendable, BitwiseCopyable {
    // @unchecked: the insert cases hand the engine memory prepared off the process thread; the
    // ring hands it over (the sender does not touch it after), as for every command.
    public enum Action: @unchecked Sendable, BitwiseCopyable {
        /// Set parameter `parameter` (global index) to `value`, gliding over `glideFrames`
        /// (`exponential`: at a constant ratio).
        case set(parameter: UInt16, value: Double, glideFrames: Int32, exponential: Bool)
        /// Fade every output to silence over `fadeFrames`, then stay silent (end of a run).
        case stop(fadeFrames: Int32)
        /// Fade back in over `fadeFrames` after a stop (a session played again).
        case start(fadeFrames: Int32)
        /// Start the pattern in slot `slot` (`ticks` long); slot `Command.noPattern` stops.
        case pattern(slot: UInt16, ticks: Int32)
        /// Hosted plugins (see the engine's InsertRack; the engine's own types behind the raw
        /// pointers): replace bus `bus`'s chain with `chain` (nil: none).
        case insertChain(bus: UInt8, chain: UnsafeMutableRawPointer?)
        /// Set control port `port` of the slot at `slot` to `value`.
        case insertControl(slot: UnsafeMutableRawPointer, port: UInt16, value: Float)
        /// Hear (or bypass) the slot at `slot` through a crossfade of `fadeFrames`.
        case insertHeard(slot: UnsafeMutableRawPointer, heard: Bool, fadeFrames: Int32)
    }

    /// The engine frame it applies on, or `Command.now`.
    public var frame: Int64
    public var action: Action

    public init(frame: Int64 = now, _ action: Action) {
        self.frame = frame
        self.action = action
    }

    /// The frame of a command that applies as soon as the engine takes it (at its next period),
    /// not on a time tag. Engine frame 0 is a real frame, long past once a client has run: a
    /// pattern started "at 0" was timed from it and had ended before it began. Sorts first.
    /// (Computed and inlinable: the process thread reads it, and may touch no lazy global.)
    @inlinable public static var now: Int64 { .min }

    /// The pattern slot that stops the playing pattern.
    @inlinable public static var noPattern: UInt16 { 0xFFFF }

    /// `frame`, or `now` when there is none.
    public static func frame(_ frame: Int64?) -> Int64 { frame ?? now }

    /// The frame a command taken on engine frame `current` counts from.
    @inlinable @inline(__always)
    public func startFrame(takenAt current: Int64) -> Int64 { frame == Self.now ? current : frame }

    public static func set(_ parameter: Int, to value: Double, at frame: Int64 = now, glideFrames: Int = 0,
                           exponential: Bool = false) -> Command {
        Command(frame: frame, .set(parameter: UInt16(parameter), value: value, glideFrames: Int32(clamping: glideFrames),
                                   exponential: exponential))
    }

    public static func stop(fadeFrames: Int, at frame: Int64 = now) -> Command {
        Command(frame: frame, .stop(fadeFrames: Int32(clamping: fadeFrames)))
    }

    public static func start(fadeFrames: Int, at frame: Int64 = now) -> Command {
        Command(frame: frame, .start(fadeFrames: Int32(clamping: fadeFrames)))
    }

    public static func pattern(slot: Int, ticks: Int, at frame: Int64 = now) -> Command {
        Command(frame: frame, .pattern(slot: UInt16(slot), ticks: Int32(clamping: ticks)))
    }

    public static func stopPattern(at frame: Int64 = now) -> Command {
        Command(frame: frame, .pattern(slot: noPattern, ticks: 0))
    }
}
