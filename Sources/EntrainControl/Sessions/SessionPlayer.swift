import EntrainCore
import EntrainEngine
import Foundation

/// A session turned into changes stamped with the frame they apply on, relative to its start.
/// Stage boundaries fall on round(seconds × rate): sample-accurate, the same live and offline.
public struct SessionProgram: Sendable {
    public struct Change: Sendable {
        public let frame: Int64
        public let address: String
        public let value: Double
        /// nil: the parameter's own glide.
        public let glide: Double?
        /// nil: the parameter's own curve.
        public let exponential: Bool?
    }

    public let session: Session
    public let sampleRate: Double
    public let changes: [Change]
    public let frames: Int64
    /// Where each stage starts (frames from the session's start).
    public let stageStarts: [Int64]

    public init(_ session: Session, sampleRate: Double) {
        self.session = session
        self.sampleRate = sampleRate
        var changes: [Change] = []
        var starts: [Int64] = []
        var elapsed = 0.0
        for stage in session.stages {
            let frame = Int64((elapsed * sampleRate).rounded())
            starts.append(frame)
            let end = Int64(((elapsed + stage.duration) * sampleRate).rounded())
            let slide = Double(end - frame) / sampleRate  // exactly to the next boundary
            for (address, value) in stage.changes {
                switch stage.transition {
                case .hold: changes.append(Change(frame: frame, address: address, value: value, glide: nil, exponential: nil))
                case .crossfade: changes.append(Change(frame: frame, address: address, value: value, glide: stage.fade, exponential: false))
                case .linear: changes.append(Change(frame: frame, address: address, value: value, glide: slide, exponential: false))
                case .exponential: changes.append(Change(frame: frame, address: address, value: value, glide: slide, exponential: true))
                }
            }
            elapsed += stage.duration
        }
        self.changes = changes
        frames = Int64((elapsed * sampleRate).rounded())
        stageStarts = starts
    }

    /// `base` with the first stage's values already in place when it holds or crossfades, so a
    /// session starts on its own settings instead of gliding to them.
    public func initialValues(_ base: ParameterValues) -> ParameterValues {
        guard let first = session.stages.first, first.transition == .hold || first.transition == .crossfade else { return base }
        var values = base
        for (address, value) in first.changes {
            if let entry = try? Engine.parameterTable.entry(for: address) { values[entry.index] = value }
        }
        return values
    }

    /// The stage playing at `frame` (frames from the start).
    public func stage(at frame: Int64) -> Int {
        max(0, (stageStarts.lastIndex { $0 <= frame }) ?? 0)
    }
}

/// Feeds a program to an engine as time goes by: each change is sent ahead of its frame (the
/// engine applies it on exactly that frame), never all at once, so long programs fit the
/// engine's bounded queue.
public final class SessionPlayer {
    public let program: SessionProgram
    public let startFrame: Int64
    private var next = 0

    public init(program: SessionProgram, startFrame: Int64) {
        self.program = program
        self.startFrame = startFrame
    }

    public var endFrame: Int64 { startFrame + program.frames }

    /// Send every change due up to `frame` (engine frames), each frame's changes as one batch.
    public func send(through frame: Int64, to host: EngineHost) throws {
        while next < program.changes.count, startFrame + program.changes[next].frame <= frame {
            let at = program.changes[next].frame
            var batch: [EngineHost.Change] = []
            while next < program.changes.count, program.changes[next].frame == at {
                let change = program.changes[next]
                batch.append(EngineHost.Change(change.address, change.value, glide: change.glide, exponential: change.exponential))
                next += 1
            }
            try host.set(batch, at: startFrame + at)
        }
    }

    public var isComplete: Bool { next == program.changes.count }
}
