import EntrainCore
import EntrainDSP

/// One instruction from the ambient conductor (control side) to the ambient plugin, applied on
/// its exact engine frame. The conductor pushes them in frame order.
public struct AmbientEvent: Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// New sound settings (`settings`).
        case settings
        /// Apply a chord: `chordSize` frequencies, voice i entering `offsets[i]` seconds late.
        case chord
        /// The granulator's next 10 000 draws: the engine stream resumed from `streamCounter`.
        case grainSequence
        /// Start (fade in over `seconds`) with `settings`, reseeding the unseeded-on-the-web
        /// randomness from `seed`.
        case play
        /// Fade out over `seconds`, then release the voices and stop computing.
        case stop
        /// Start the lead note `note`.
        case leadNote
        /// Start the drum hit `hit`.
        case drumHit
        /// A Euclid lane's note on pad voice `padVoice`: `chord[0]` Hz at velocity `seconds`.
        case padNote
        /// The chord sequencer is off: release the pad's voices.
        case padRelease
    }

    public var frame: Int64
    public var kind: Kind
    public var chord = InlineArray<6, Double>(repeating: 0)
    public var chordSize = 0
    public var offsets = InlineArray<6, Double>(repeating: 0)
    public var streamCounter = 0.0
    public var seconds = 0.0
    public var seed: UInt64 = 0
    public var settings = AmbientSettings()
    public var note = FMNote()
    public var hit = DrumSound()
    public var padVoice = 0
    /// Settings and play events: the conductor's state version they were computed from. The
    /// plugin skips settings older than the ones it applied, so a change sent now (which lands
    /// on its own frame, before events queued earlier for later frames) is never undone by a
    /// walk or morph step computed before it.
    public var version: UInt64 = 0

    public init(frame: Int64, kind: Kind) {
        self.frame = frame
        self.kind = kind
    }
}

/// Conductor → ambient plugin.
public typealias AmbientEventRing = SPSCRing<AmbientEvent>
