import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import EntrainFiles
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

    /// The longest stage a file may give: a week. Any sum of stages a file can hold (see
    /// `InputLimits.documentBytes`) stays far inside the frame counter at any sample rate.
    public static let maximumStageSeconds = 7 * 24 * 3600.0

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

    /// `file:line:column: error: …`; a problem with the whole file (line 0) is `file: error: …`.
    public var description: String {
        "\(file)\(line > 0 ? ":\(line):\(column)" : ""): \(isWarning ? "warning" : "error"): \(message)"
    }
}

public struct SessionLoadError: Error, CustomStringConvertible {
    public let problems: [SessionProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }

    public init(problems: [SessionProblem]) { self.problems = problems }

    /// One error at `line` (column 1) of `file`.
    static func at(_ file: String, line: Int, _ message: String) -> SessionLoadError {
        SessionLoadError(problems: [SessionProblem(file: file, line: line, column: 1, message: message, isWarning: false)])
    }

    /// `read()`'s result, its failure (missing, a folder, too large) as a session problem.
    static func reading<T>(_ read: () throws -> T) throws -> T {
        do { return try read() } catch let error as DocumentReadError {
            throw SessionLoadError(problems: [SessionProblem(file: error.file, line: 0, column: 0, message: error.reason, isWarning: false)])
        }
    }
}
