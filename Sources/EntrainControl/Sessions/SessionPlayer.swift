import EntrainAddressSpace
import EntrainCore
import EntrainDSP
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
    /// Haptic/light patterns to start with their stage: `"haptic": {"pattern": "heartbeat"}`.
    public let patternStarts: [(frame: Int64, name: String)]
    /// Ambient presets to glide to with their stage: `"ambient": {"preset": "…", "crossfade": 8}`.
    public let ambientStarts: [(frame: Int64, stage: AmbientStage)]
    /// `"set"` entries of families other than the engine (whose entries are among `changes`),
    /// with the glide their stage's transition gives them.
    public let familyChanges: [(frame: Int64, change: ControlChange)]

    public init(_ session: Session, sampleRate: Double) {
        self.session = session
        self.sampleRate = sampleRate
        var changes: [Change] = []
        var starts: [Int64] = []
        var patterns: [(frame: Int64, name: String)] = []
        var ambient: [(frame: Int64, stage: AmbientStage)] = []
        var others: [(frame: Int64, change: ControlChange)] = []
        var elapsed = 0.0
        for stage in session.stages {
            let frame = Int64(saturating: elapsed * sampleRate)
            starts.append(frame)
            if let block = stage.pluginBlocks.last(where: { $0.key == "haptic" })?.value,
               case .string(let name)? = block["pattern"]?.value {
                patterns.append((frame, name))
            }
            if let block = AmbientStage.parse(stage) { ambient.append((frame, block)) }
            let end = Int64(saturating: (elapsed + stage.duration) * sampleRate)
            let slide = Double(end - frame) / sampleRate  // exactly to the next boundary
            let (glide, exponential): (Double?, Bool?) = switch stage.transition {
            case .hold: (nil, nil)
            case .crossfade: (stage.fade, false)
            case .linear: (slide, false)
            case .exponential: (slide, true)
            }
            var engineValues = stage.changes
            for set in stage.sets {
                let numbers = (try? EngineFamily.numbers(set)) ?? []
                if numbers.isEmpty {
                    others.append((frame, ControlChange(set.address, set.value, glide: glide ?? 0, exponential: exponential)))
                } else {
                    engineValues += numbers
                }
            }
            for (address, value) in engineValues {
                changes.append(Change(frame: frame, address: address, value: value, glide: glide, exponential: exponential))
            }
            elapsed += stage.duration
        }
        self.changes = changes
        frames = Int64(saturating: elapsed * sampleRate)
        stageStarts = starts
        patternStarts = patterns
        ambientStarts = ambient
        familyChanges = others
    }

    /// `base` with the first stage's values already in place when it holds or crossfades, so a
    /// session starts on its own settings instead of gliding to them.
    public func initialValues(_ base: ParameterValues) -> ParameterValues {
        guard let first = session.stages.first, first.transition == .hold || first.transition == .crossfade else { return base }
        var values = base
        for (address, value) in first.changes {
            if let entry = try? Engine.parameterTable.entry(for: address) { values[entry.index] = value }
        }
        return (try? EngineFamily.fold(first.sets, into: values)) ?? values
    }

    /// Where every parameter the program has touched stands at `frame` (from the start): its value
    /// then, and, mid-slide, the target and the seconds left to reach it.
    public func state(at frame: Int64) -> [(address: String, value: Double, target: Double, remaining: Double, exponential: Bool)] {
        let table = Engine.parameterTable
        var slides: [String: (from: Double, to: Double, start: Int64, length: Int64, exponential: Bool)] = [:]
        var order: [String] = []
        for change in changes where change.frame <= frame {
            guard let descriptor = try? table.entry(for: change.address).descriptor else { continue }
            let before = slides[change.address].map { Self.value(of: $0, at: change.frame) } ?? change.value
            // A toggle or a choice takes its new value at once (a strike half on would strike again).
            let length = descriptor.isContinuous ? Int64(saturating: (change.glide ?? descriptor.glideSeconds ?? 0) * sampleRate) : 0
            if slides[change.address] == nil { order.append(change.address) }
            slides[change.address] = (before, change.value, change.frame, length, change.exponential ?? descriptor.glidesExponentially)
        }
        return order.map { address in
            let slide = slides[address]!
            let remaining = max(0, Double(slide.start + slide.length - frame) / sampleRate)
            return (address, Self.value(of: slide, at: frame), slide.to, remaining, slide.exponential)
        }
    }

    /// The other families' `"set"` entries in force at `frame`: the last of each address at or before it.
    public func familyState(at frame: Int64) -> [ControlChange] {
        var latest: [String: ControlChange] = [:]
        var order: [String] = []
        for (at, change) in familyChanges where at <= frame {
            if latest[change.address] == nil { order.append(change.address) }
            latest[change.address] = change
        }
        return order.compactMap { latest[$0] }
    }

    private static func value(of slide: (from: Double, to: Double, start: Int64, length: Int64, exponential: Bool), at frame: Int64) -> Double {
        guard slide.length > 0, frame < slide.start + slide.length else { return slide.to }
        let t = Double(frame - slide.start) / Double(slide.length)
        if slide.exponential && slide.from > 0 && slide.to > 0 { return slide.from * pow(slide.to / slide.from, t) }
        return slide.from + (slide.to - slide.from) * t
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
    private var nextPattern = 0
    private var nextAmbient = 0
    private var nextFamilyChange = 0
    /// The next stage whose start rings the stage cue (see SessionPlayer+Cues).
    var nextCue = 1
    /// The door every change of the program goes through, as a file's (nil: the engine's family
    /// alone, over the host the changes are sent to).
    public var space: AddressSpace?
    /// Where stage patterns come from (nil: they are skipped).
    public var patterns: PatternPlayer?
    /// The ambient engine for stages' ambient blocks (nil: they are skipped).
    public var ambient: AmbientController?

    /// `skipThrough`: session frames already accounted for (after a seek), not sent again.
    public init(program: SessionProgram, startFrame: Int64, skipThrough: Int64? = nil) {
        self.program = program
        self.startFrame = startFrame
        if let skipThrough {
            next = program.changes.firstIndex { $0.frame > skipThrough } ?? program.changes.count
            nextPattern = program.patternStarts.firstIndex { $0.frame > skipThrough } ?? program.patternStarts.count
            nextAmbient = program.ambientStarts.firstIndex { $0.frame > skipThrough } ?? program.ambientStarts.count
            nextFamilyChange = program.familyChanges.firstIndex { $0.frame > skipThrough } ?? program.familyChanges.count
            nextCue = max(1, program.stageStarts.firstIndex { $0 > skipThrough } ?? program.stageStarts.count)
        }
    }

    public var endFrame: Int64 { startFrame + program.frames }

    /// Send every change due up to `frame` (engine frames), each frame's changes as one batch,
    /// through the address space (a file's door, like every stage's value).
    public func send(through frame: Int64, to host: EngineHost) throws {
        let space = door(host)
        while next < program.changes.count, startFrame + program.changes[next].frame <= frame {
            let at = program.changes[next].frame
            var batch: [ControlChange] = []
            while next < program.changes.count, program.changes[next].frame == at {
                let change = program.changes[next]
                if let c = EngineFamily.change(change.address, number: change.value, glide: change.glide, exponential: change.exponential) { batch.append(c) }
                next += 1
            }
            try space.set(batch, at: startFrame + at, from: .file)
        }
        try sendCues(through: frame, to: host)
        while nextPattern < program.patternStarts.count, startFrame + program.patternStarts[nextPattern].frame <= frame {
            let start = program.patternStarts[nextPattern]
            nextPattern += 1
            try patterns?.play(start.name, on: host, at: startFrame + start.frame)
        }
        // Ahead of time, on their frame: each family lands them there (the ambient conductor
        // holds changes tagged beyond its lookahead until their frame).
        while nextFamilyChange < program.familyChanges.count, startFrame + program.familyChanges[nextFamilyChange].frame <= frame {
            let at = program.familyChanges[nextFamilyChange].frame
            var batch: [ControlChange] = []
            while nextFamilyChange < program.familyChanges.count, program.familyChanges[nextFamilyChange].frame == at {
                batch.append(program.familyChanges[nextFamilyChange].change)
                nextFamilyChange += 1
            }
            try space.set(batch, at: startFrame + at, from: .file)
        }
        // Not ahead of time: the conductor applies a preset when it is called, and its events
        // queue in order, so the stage's preset waits until the engine has reached the stage.
        while nextAmbient < program.ambientStarts.count, startFrame + program.ambientStarts[nextAmbient].frame <= min(frame, host.frame) {
            let start = program.ambientStarts[nextAmbient].stage
            nextAmbient += 1
            try ambient?.startStage(preset: start.preset, crossfade: start.crossfade)
        }
    }

    /// The address space changes go through: the one given (an offline render's holds only the
    /// families it made), with the engine's family over `host` joined when it has none.
    func door(_ host: EngineHost) -> AddressSpace {
        let space = self.space ?? AddressSpace()
        if !space.families.contains(where: { $0 is EngineFamily }) { space.add(EngineFamily(CurrentEngine(host))) }
        self.space = space
        return space
    }

    public var isComplete: Bool { next == program.changes.count }
}
