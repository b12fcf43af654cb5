/// A change for the engine, stamped with the frame at which it applies.
/// Plain value type: it crosses from the control thread to the process thread through a ring.
/// (Panic is not a command: it is a flag the engine reads every period, see `EngineStatus`.)
public struct Command: Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// Set a parameter (global index) to `value`, gliding over `glideFrames`.
        case set
        /// Fade every output to silence over `glideFrames`, then stay silent (end of a run).
        case stop
        /// Fade back in over `glideFrames` after a stop (a session played again).
        case start
        /// Start the pattern in slot `parameter` (`value` ticks long) at `frame`; slot 0xFFFF stops.
        case pattern
        /// Hosted plugins (see the engine's InsertRack): replace bus `parameter`'s chain with the
        /// one at address `value`; set control port `parameter` of the slot at `value` to the
        /// Float whose bits are `glideFrames`; hear (`parameter` 1) or bypass the slot at `value`
        /// over `glideFrames`.
        case insertChain, insertControl, insertHeard
    }

    /// The engine frame it applies on, or `Command.now`.
    public var frame: Int64
    public var kind: Kind
    public var parameter: UInt16
    public var exponential: Bool
    public var glideFrames: Int32
    public var value: Double

    public init(frame: Int64, kind: Kind, parameter: Int = 0, value: Double = 0, glideFrames: Int = 0,
                exponential: Bool = false) {
        self.frame = frame
        self.kind = kind
        self.parameter = UInt16(parameter)
        self.value = value
        self.glideFrames = Int32(clamping: glideFrames)
        self.exponential = exponential
    }

    /// The frame of a command that applies as soon as the engine takes it (at its next period),
    /// not on a time tag. Engine frame 0 is a real frame, long past once a client has run: a
    /// pattern started "at 0" was timed from it and had ended before it began. Sorts first.
    /// (Computed and inlinable: the process thread reads it, and may touch no lazy global.)
    @inlinable public static var now: Int64 { .min }

    /// `frame`, or `now` when there is none.
    public static func frame(_ frame: Int64?) -> Int64 { frame ?? now }

    /// The frame a command taken on engine frame `current` counts from.
    @inlinable @inline(__always)
    public func startFrame(takenAt current: Int64) -> Int64 { frame == Self.now ? current : frame }

    public static func set(_ parameter: Int, to value: Double, at frame: Int64 = now, glideFrames: Int = 0,
                           exponential: Bool = false) -> Command {
        Command(frame: frame, kind: .set, parameter: parameter, value: value, glideFrames: glideFrames,
                exponential: exponential)
    }
}
