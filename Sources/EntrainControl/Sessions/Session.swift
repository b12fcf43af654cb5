import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// A session program: named stages played one after another on the frame clock.
/// The file format is documented in sessions/README.md.
public struct Session: Sendable {
    public enum Transition: String, CaseIterable, Sendable {
        /// The stage's values apply at its start, with each parameter's own short glide.
        case hold
        /// The values change at the stage's start over `fade` seconds (a crossfade for modes and waveforms).
        case crossfade
        /// Slide from the values at the stage's start to the stage's values over the whole stage.
        case linear
        /// As linear, with constant ratios per second for frequencies (equal musical steps).
        case exponential
    }

    public struct Stage: Sendable {
        public var name: String
        public var duration: Double
        public var transition: Transition
        /// Crossfade length in seconds (crossfade only).
        public var fade: Double
        /// Parameter address → value (natural units; option indices for choices), in file order.
        public var changes: [(address: String, value: Double)]
        /// Blocks for plugins this build does not have (ambient, led, haptic, …), kept as written.
        public var pluginBlocks: [(key: String, value: JSONNode)]
        /// The stage's `"set"` block: any address of the address space, checked, in file order.
        /// Applied on the stage's first frame; numbers slide over the stage with its transition.
        public var sets: [ControlChange] = []
    }

    public var name: String
    public var description: String
    public var stages: [Stage]

    public var duration: Double { stages.reduce(0) { $0 + $1.duration } }
}

/// One problem in a session file, where it is.
public struct SessionProblem: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    /// Warnings (a misspelt key, say) do not stop a session from loading.
    public let isWarning: Bool

    public var description: String { "\(file):\(line):\(column): \(isWarning ? "warning" : "error"): \(message)" }
}

public struct SessionLoadError: Error, CustomStringConvertible {
    public let problems: [SessionProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
