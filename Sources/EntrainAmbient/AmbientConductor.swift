import EntrainDSP
import EntrainEngine
import Foundation
import Kessho

/// The control side of the ambient engine: it owns the Kessho state and the seeded streams, and
/// turns the 16 s UTC phrase grid into frame-exact events for the ambient plugin: play, chords,
/// granulator sequences and settings, in the web's start order and draw order. The web drives
/// the grid with timers; here each boundary is scheduled on the engine frame that plays at that
/// wall-clock second.
///
/// `pump` does the scheduling: call it regularly (live: every few tens of milliseconds; offline:
/// before each block). Every method is thread-safe; the conductor is the ring's only producer.
// @unchecked: every mutable field is read and written under `lock` (see "guarded by" below).
public final class AmbientConductor: @unchecked Sendable {
    /// An engine frame and the UTC time (Unix seconds) at which it plays.
    public struct Moment: Sendable, Equatable {
        public var frame: Int64
        public var unixSeconds: Double
        public init(frame: Int64, unixSeconds: Double) {
            self.frame = frame
            self.unixSeconds = unixSeconds
        }
    }

    private let lock = NSLock()
    private let lookaheadSeconds: Double

    // Everything below is guarded by `lock`.
    private var engine: EngineHost
    private var clock: @Sendable () -> Moment
    private var sampleRate: Double
    private var lookahead: Int64
    private var current: KesshoState { didSet { homeDrumLanes = nil } }
    /// The drum lanes as `current` sets them, kept until it changes: the pump asks at every hit,
    /// and reading them walks some forty keys of the state by name.
    private var homeDrumLanes: [DrumLanes.Lane?]?
    private var sliders: KesshoSliders
    private var walk: KesshoSliderWalk?
    private var nextWalkFrame: Int64 = .max
    private var seedValue: UInt64
    private var playing = false
    private var grid = PhraseGrid(start: Moment(frame: 0, unixSeconds: 0), sampleRate: 48_000)
    private var bucketValue = ""
    private var driver: KesshoHarmonyDriver?
    private var stream = KesshoRandom(seed: "")
    private var lastFrame: Int64 = 0
    private var morph: Morph?
    /// Key changes time-tagged beyond the lookahead, in frame order (equal frames: as sent).
    private var tagged: [TaggedChange] = []
    /// Counts the changes from outside (keys set, glides started): events carry it so the plugin
    /// skips settings computed before a change it has already applied.
    private var version: UInt64 = 0
    /// The lead melody's notes still to fire this phrase, in frame order.
    private var melody: [(frame: Int64, note: KesshoMelody.Note)] = []
    private var leadNotes = KesshoLeadNote(seed: 0, sampleRate: 48_000)
    private var drumLanes = DrumLanes(seed: 0)
    /// What the web draws from Math.random for the drums (per-hit morph positions).
    private var drumSide = Mulberry32(seed: 0)
    private var tempoSourceValue = AmbientTempoSource.phrase
    /// Reads an outside beat grid (JACK transport, beat_in) when one is available.
    private var externalBeat: @Sendable (AmbientTempoSource) -> ExternalBeat? = { _ in nil }
    private var drumsResync = true
    private var drumsOnOutsideBeat = false
    /// Each drum lane's evolve settings, how far it has wandered, and the bar of its next tick.
    private var evolveSettings = [DrumEvolveSetting](repeating: .init(), count: 4)
    private var evolutions = (0..<4).map { DrumLaneEvolution(seed: 0, lane: $0) }
    private var nextEvolveBar: [Int64] = [0, 0, 0, 0]

    struct TaggedChange {
        let frame: Int64
        let changes: [(key: String, value: KesshoValue)]
        let settings: [ConductorSetting]
        let glideSeconds: Double
    }

    struct Morph {
        var from: KesshoState, to: KesshoState
        let startFrame: Int64, frames: Int64
        var lastStepFrame: Int64

        mutating func pin(_ key: String, _ value: KesshoValue) {
            from[key] = value
            to[key] = value
        }
    }

    /// `clock` tells where the engine is now; `lookaheadSeconds` is how early events are queued
    /// (they wait in the ring, so a setting sent meanwhile waits behind them). `settings`: the
    /// conductor's own settings to start with, in order.
    public init(host: EngineHost, state: KesshoState = .defaults, settings: [ConductorSetting] = [],
                sliders: KesshoSliders = KesshoSliders(), seed: UInt64 = 0,
                lookaheadSeconds: Double = 0.25, clock: @escaping @Sendable () -> Moment) {
        engine = host
        sampleRate = host.sampleRate
        current = state
        self.sliders = sliders
        seedValue = seed
        self.clock = clock
        self.lookaheadSeconds = lookaheadSeconds
        lookahead = Int64(lookaheadSeconds * host.sampleRate)
        for setting in settings { take(setting) }
    }

    /// The engine the events go to.
    public var host: EngineHost { lock.withLock { engine } }

    /// Carry on with a new engine (JACK's sample rate changed and the run loop re-prepared it):
    /// if playing, it resumes there at once with the current settings and chord, keeping the
    /// harmony, its streams and the phrase grid.
    public func move(to host: EngineHost, clock: @escaping @Sendable () -> Moment) throws {
        try lock.withLock {
            engine = host
            self.clock = clock
            sampleRate = host.sampleRate
            lookahead = Int64(lookaheadSeconds * host.sampleRate)
            lastFrame = 0
            morph = nil
            // The phrase's remaining notes were placed on the old engine's frames: they are
            // dropped (the next boundary brings new ones); the drums re-count their steps.
            melody.removeAll()
            drumsResync = true
            leadNotes = KesshoLeadNote(seed: seedValue, sampleRate: sampleRate)
            guard playing else { return }
            let now = clock()
            grid = PhraseGrid(grid, anchoredAt: now, sampleRate: sampleRate)
            try push(.play(at: now.frame, seed: seedValue, fadeSeconds: 0.05, settings: settingsNow))
            nextWalkFrame = now.frame + walkStep
            // No stagger draws: this is not a chord change.
            if let chord = driver?.harmony.chord { try push(.chord(chord, at: now.frame)) }
            try push(.grainSequence(at: now.frame, streamCounter: stream.generator.counter))
        }
    }

    /// Where a live engine is, on the audio server's own frame↔wall-clock mapping (JACK's: the
    /// one clock OSC time tags use too): the frame playing now, and now. Before the server's
    /// first cycle, the engine's frame counter and the wall clock.
    public static func liveClock(_ host: EngineHost, on backend: AudioBackend) -> @Sendable () -> Moment {
        { [weak backend] in
            let now = Date().timeIntervalSince1970
            return Moment(frame: backend?.engineFrame(atUnixTime: now) ?? host.frame, unixSeconds: now)
        }
    }

    // MARK: State

    public var state: KesshoState { lock.withLock { current } }
    /// The slider modes and dual ranges in force (from the loaded preset).
    public var sliderSetup: KesshoSliders { lock.withLock { sliders } }
    public var isPlaying: Bool { lock.withLock { playing } }
    public var seed: UInt64 { lock.withLock { seedValue } }
    /// The frozen UTC bucket of the current play ("" when stopped).
    public var bucket: String { lock.withLock { bucketValue } }
    /// The circle-of-fifths drift position (−6…6) and the chord now sounding.
    public var harmony: (step: Int, chord: KesshoChord?) {
        lock.withLock { (driver?.drift.step ?? 0, driver?.harmony.chord) }
    }

    /// Change one key (already validated). The sound follows at once; the harmony reads the new
    /// state at the next boundary, as the web's does.
    public func set(_ key: String, _ value: KesshoValue) throws { try set([(key, value)]) }

    /// Change one of the conductor's own settings, now.
    public func set(_ setting: ConductorSetting) throws { try set([], settings: [setting]) }

    /// Change several keys (already validated) together, on engine frame `frame` (nil: now) and
    /// gliding there over `glideSeconds` (0: at once; numbers glide, other keys switch at the
    /// start). A frame beyond the lookahead waits here until its turn; one inside it is sent at
    /// once for its own frame (the plugin takes events in frame order, and skips steps computed
    /// before this change: `AmbientEvent.version`). Either way it lands on its frame. While the
    /// engine is stopped a change applies to the state at once. `settings` (the conductor's own,
    /// in order) take effect on the same frame; they switch, they never glide.
    public func set(_ changes: [(key: String, value: KesshoValue)], settings: [ConductorSetting] = [], at frame: Int64? = nil,
                    glideSeconds: Double = 0) throws {
        try lock.withLock {
            if let frame, playing, frame > clock().frame + lookahead {
                let change = TaggedChange(frame: frame, changes: changes, settings: settings, glideSeconds: glideSeconds)
                tagged.insert(change, at: tagged.firstIndex { $0.frame > frame } ?? tagged.count)
                return
            }
            // Stopped: the state changes now (nothing sounds; a far-off event would only hold
            // a slot of the plugin's queue).
            try apply(changes, settings: settings, glideSeconds: glideSeconds, at: playing ? frame : nil)
        }
    }

    /// Under the lock: the keys take their values (or start gliding there) at `frame`.
    private func apply(_ changes: [(key: String, value: KesshoValue)], settings: [ConductorSetting], glideSeconds: Double,
                       at frame: Int64?) throws {
        version &+= 1  // what was queued before this no longer holds
        for setting in settings { take(setting) }
        if glideSeconds > 0, playing {
            var target = morph?.to ?? current
            for (key, value) in changes { target[key] = value }
            let start = frame ?? clock().frame
            morph = Morph(from: current, to: target, startFrame: start, frames: Int64(glideSeconds * sampleRate), lastStepFrame: start)
            return
        }
        for (key, value) in changes {
            let old = current[key]
            current[key] = value
            // A key set during a preset glide holds its value; the other keys glide on.
            morph?.pin(key, value)
            if key == "cofDriftEnabled", value == .bool(false) { driver?.resetDrift() }
            if key == "seedWindow", old != value, playing { restartStreams(at: grid.origin) }
            if key.hasPrefix("drumEuclid") || key == "drumEnabled" { drumsResync = true }
            // The web's UI writes a drum voice's morph into the state when it moves.
            if let voice = DrumSound.Voice.allCases.first(where: { v in
                ["Morph", "PresetA", "PresetB"].contains { key == "drum\(v.name)\($0)" }
            }) {
                for (k, v) in KesshoDrumHit.morphWrite(voice: voice.name, state: current) {
                    current[k] = v
                    morph?.pin(k, v)
                }
            }
        }
        try push(.settings(settingsNow, at: frame ?? clock().frame))
    }

    /// Replace the whole state (a preset, with its slider modes), gliding there over `crossfade`
    /// seconds the way the web's preset morph does. The key goes home (the web resets the drift
    /// on load); walking sliders restart from the new ranges.
    /// `settings`: the conductor's own, taken at once.
    public func load(_ state: KesshoState, settings: [ConductorSetting] = [], sliders: KesshoSliders = KesshoSliders(),
                     crossfade: Double = 0) throws {
        try lock.withLock {
            for setting in settings { take(setting) }
            driver?.resetDrift()
            self.sliders = sliders
            version &+= 1
            if playing { walk = KesshoSliderWalk(sliders, seed: seedValue) }
            if crossfade > 0, playing {
                let start = clock().frame
                morph = Morph(from: current, to: state, startFrame: start, frames: Int64(crossfade * sampleRate),
                              lastStepFrame: start)
            } else {
                morph = nil
                current = state
                try push(.settings(settingsNow, at: clock().frame))
            }
        }
    }

    public func load(_ preset: KesshoPreset, settings: [ConductorSetting] = [], crossfade: Double = 0) throws {
        try load(preset.state, settings: settings, sliders: KesshoSliders(preset), crossfade: crossfade)
    }

    /// The seed of what the web leaves to Math.random (filter walk, granulator noise, ocean);
    /// it takes effect at the next play.
    public func reseed(_ seed: UInt64) { lock.withLock { seedValue = seed } }

    // MARK: Tempo

    /// Under the lock (or in init): one of the conductor's own settings takes effect.
    private func take(_ setting: ConductorSetting) {
        switch setting {
        case .tempoSource(let source):
            tempoSourceValue = source
        case .evolve(let lane, let field):
            guard evolveSettings.indices.contains(lane) else { return }
            evolveSettings[lane].take(field)
            if !evolveSettings[lane].on { evolutions[lane].goHome() }
        }
        drumsResync = true
    }

    /// Drum lane `lane`'s (0…3) evolve settings.
    public func evolve(lane: Int) -> DrumEvolveSetting { lock.withLock { evolveSettings[lane] } }

    /// What the lead and drums keep time with (see `AmbientTempoSource`).
    public var tempoSource: AmbientTempoSource {
        get { lock.withLock { tempoSourceValue } }
        set { lock.withLock { tempoSourceValue = newValue; drumsResync = true } }
    }

    /// Where JACK transport's or beat_in's beats are (nil while there are none: the engine's own
    /// grid is used meanwhile).
    public func readExternalBeats(_ reader: @escaping @Sendable (AmbientTempoSource) -> ExternalBeat?) {
        lock.withLock { externalBeat = reader }
    }

    /// The outside grid in force for the chosen source, if any (the phrase source: a followed
    /// Link session's).
    private var external: ExternalBeat? {
        externalBeat(tempoSourceValue == .phrase ? .link : tempoSourceValue).flatMap { $0.periodFrames > 0 ? $0 : nil }
    }

    private var drumClock: DrumClock {
        DrumClock(grid: grid, external: external, beatSeconds: Self.phraseBeatSeconds(current), tempo: Self.drumTempo(current))
    }

    /// The drums' beat on the engine's own grid, seconds: drumEuclidBaseBPM × drumEuclidTempo
    /// (beats counted from the Unix epoch).
    public static func phraseBeatSeconds(_ state: KesshoState) -> Double {
        60 / (min(max(state.number("drumEuclidBaseBPM") ?? 120, 1), 1000) * drumTempo(state))
    }

    static func drumTempo(_ state: KesshoState) -> Double { min(max(state.number("drumEuclidTempo") ?? 1, 0.25), 4) }

    // MARK: Transport

    /// Start on the next frame: initial scale and chord from `"<bucket>|E_ROOT"`, the first
    /// chord without crossfade, then the grid.
    public func play(fadeSeconds: Double = 0.05) throws {
        try lock.withLock {
            guard !playing else { return }
            let now = clock()
            let start = Moment(frame: max(now.frame, lastFrame), unixSeconds: now.unixSeconds)
            restartStreams(at: start)
            walk = KesshoSliderWalk(sliders, seed: seedValue)
            nextWalkFrame = start.frame + walkStep
            try push(.play(at: start.frame, seed: seedValue, fadeSeconds: fadeSeconds, settings: settingsNow))
            playing = true
            leadNotes = KesshoLeadNote(seed: seedValue, sampleRate: sampleRate)
            drumLanes = DrumLanes(seed: seedValue)
            evolutions = (0..<4).map { DrumLaneEvolution(seed: seedValue, lane: $0) }
            drumSide = Mulberry32(seed: UInt32(truncatingIfNeeded: seedValue ^ 0xD2D2))
            drumsResync = true
            if let chord = driver?.harmony.chord { try pushChord(chord, at: start.frame) }
            try pushGrainSequence(at: start.frame)
            startMelody(at: start.frame)
            try schedule(until: start.frame + lookahead)
        }
    }

    /// Fade out from `frame` (nil: now), then fall silent and stop computing.
    public func stop(fadeSeconds: Double = 2, at frame: Int64? = nil) throws {
        try lock.withLock {
            guard playing else { return }
            try push(.stop(at: max(frame ?? clock().frame, lastFrame), fadeSeconds: fadeSeconds))
            playing = false
            morph = nil
            melody.removeAll()
            for change in tagged {
                for (key, value) in change.changes { current[key] = value }
                for setting in change.settings { take(setting) }
            }
            tagged.removeAll()
        }
    }

    /// Queue every boundary (and morph step) due before now + the lookahead.
    public func pump() throws {
        try lock.withLock {
            guard playing else { return }
            let now = clock()
            grid.follow(now)
            try schedule(until: now.frame + lookahead)
        }
    }

    // MARK: Scheduling (under the lock)

    private func restartStreams(at start: Moment) {
        grid = PhraseGrid(start: start, sampleRate: sampleRate)
        bucketValue = KesshoSeed.bucket(Date(timeIntervalSince1970: start.unixSeconds), window: KesshoSeedWindow(state: current))
        stream = KesshoRandom(seed: KesshoSeed.engineSeed(bucket: bucketValue))
        driver = KesshoHarmonyDriver(bucket: bucketValue, state: current)
    }

    private var settingsNow: AmbientSettings { AmbientSettings(kessho: current, sliders: sliders) }

    /// Frames between slider-walk ticks (the web's 10 Hz timer) and morph steps.
    private var walkStep: Int64 { Int64(0.1 * sampleRate) }
    private var morphStep: Int64 { Int64(0.05 * sampleRate) }

    /// Everything due up to `horizon`, in frame order: phrase boundaries, walk ticks, morph steps.
    private func schedule(until horizon: Int64) throws {
        while true {
            let boundary = grid.nextBoundaryFrame
            let walkAt = walk.map { $0.isEmpty ? Int64.max : nextWalkFrame } ?? .max
            let morphAt = morph.map { $0.lastStepFrame + morphStep } ?? .max
            let taggedAt = tagged.first?.frame ?? .max
            let noteAt = melody.first?.frame ?? .max
            let drums = DrumLanes.runs(current) ? nextHit() : nil
            let hitAt = drums?.frame ?? .max
            let evolveAt = drums == nil ? Int64.max : nextEvolveFrame()
            let next = min(boundary, walkAt, morphAt, taggedAt, noteAt, hitAt, evolveAt)
            guard next <= horizon else { return }
            if next == taggedAt {
                let change = tagged.removeFirst()
                try apply(change.changes, settings: change.settings, glideSeconds: change.glideSeconds, at: change.frame)
            } else if next == morphAt {
                try stepMorph(at: morphAt)
            } else if next == walkAt {
                walk?.step(&current)
                try pushSettings(at: walkAt)
                nextWalkFrame += walkStep
            } else if next == boundary {
                try phraseBoundary(at: boundary)
            } else if next == noteAt {
                try fireNote(melody.removeFirst())
            } else if next == evolveAt {
                evolveDrums(at: evolveAt)
            } else if let drums {
                try fireHit(lane: drums.lane, step: drums.step, at: drums.frame)
            }
        }
    }

    // MARK: Lead and drums (under the lock)

    /// The web's melody call: the notes of the next 16 s from `frame` (pending ones cancelled).
    /// With an outside tempo each note moves to the nearest quarter beat of that grid.
    private func startMelody(at frame: Int64) {
        melody.removeAll()
        guard KesshoMelody.runs(current) else { return }
        let notes = KesshoMelody.phrase(current) { stream.next() }
        let beats = external
        melody = notes.map { note in
            var at = frame + Int64(note.time * sampleRate)
            if let beats {
                let quarter = (beats.beat(at: at) * 4).rounded() / 4
                at = beats.frame(ofBeat: quarter)
                if at < frame { at = beats.frame(ofBeat: quarter + 0.25) }
            }
            return (at, note)
        }.sorted { $0.0 < $1.0 }
    }

    /// A melody note fires: kept or not, its pitch in the scale in force, then routed.
    private func fireNote(_ scheduled: (frame: Int64, note: KesshoMelody.Note)) throws {
        guard let d = driver else { return }
        let note = scheduled.note
        guard let (midi, velocity) = KesshoMelody.pick(note, scale: d.harmony.scale, root: d.effectiveRoot(current),
                                                       draw: { stream.next() }) else { return }
        let at = max(scheduled.frame, lastFrame)
        switch note.source {
        case .pad(let voice):
            var event = AmbientEvent(frame: at, kind: .padNote)
            event.padVoice = voice
            event.chord[0] = KesshoScales.frequency(midi: Double(midi))
            event.seconds = velocity
            try push(event)
        case .lead1, .lead2:
            let lead = note.source == .lead2 ? 2 : 1
            guard current.bool("leadEnabled") == true, lead == 1 || current.bool("lead2Enabled") == true,
                  let fm = leadNotes.note(lead: lead, midi: midi, velocity: velocity, frame: at, state: current, sliders: sliders)
            else { return }
            var event = AmbientEvent(frame: at, kind: .leadNote)
            event.note = fm
            try push(event)
        }
    }

    /// The next drum hit step, re-counted from the last frame when the tempo, the lanes or the
    /// clock changed (an outside beat appearing or going, or its count jumping on a re-lock).
    private func nextHit() -> (lane: Int, step: Int64, frame: Int64)? {
        let clock = drumClock
        let lanes = drumLanesNow
        let outside = clock.external != nil
        if drumsResync || outside != drumsOnOutsideBeat {
            resyncDrums(clock)
            drumsResync = false
            drumsOnOutsideBeat = outside
        }
        guard let next = drumLanes.next(lanes, clock: clock) else { return nil }
        let beat = Int64(clock.frame(ofBeat: 1) - clock.frame(ofBeat: 0))
        if next.frame < lastFrame - beat || next.frame > max(lastFrame, clock.grid.origin.frame) + 16 * beat {
            resyncDrums(clock)
            return drumLanes.next(lanes, clock: clock)
        }
        return next
    }

    /// Steps and evolve bars re-counted from the last frame: each lane evolves on the bars
    /// (4 beats of the drum clock, counted from its beat 0) that are multiples of its period.
    private func resyncDrums(_ clock: DrumClock) {
        let from = max(lastFrame, clock.grid.origin.frame)
        drumLanes.resync(from: from, clock: clock)
        let bar = clock.beat(at: from) / 4
        for l in 0..<4 {
            let every = Double(evolveSettings[l].everyBars)
            nextEvolveBar[l] = Int64((bar / every).rounded(.up) * every)
        }
    }

    /// The lanes the state sets, before any evolution.
    private var drumLanesHome: [DrumLanes.Lane?] {
        if let lanes = homeDrumLanes { return lanes }
        let lanes = DrumLanes.lanes(current)
        homeDrumLanes = lanes
        return lanes
    }

    /// The lanes now: each evolving one as it has wandered from its sliders.
    private var drumLanesNow: [DrumLanes.Lane?] {
        drumLanesHome.enumerated().map { l, lane in
            guard let lane, evolveSettings[l].on else { return lane }
            return evolutions[l].apply(to: lane, homeHits: lane.hits, homeRotation: lane.rotation)
        }
    }

    /// The earliest bar boundary at which an evolving lane ticks.
    private func nextEvolveFrame() -> Int64 {
        let clock = drumClock, lanes = drumLanesHome
        var best = Int64.max
        for l in 0..<4 where evolveSettings[l].on && lanes[l] != nil {
            var frame = clock.frame(ofBeat: 4 * Double(nextEvolveBar[l]))
            if frame < lastFrame - Int64(4 * clock.beatSeconds * sampleRate) {  // the clock jumped
                resyncDrums(clock)
                frame = clock.frame(ofBeat: 4 * Double(nextEvolveBar[l]))
            }
            best = min(best, frame)
        }
        return best
    }

    /// Bar boundary `frame`: every evolving lane due there drifts one tick.
    private func evolveDrums(at frame: Int64) {
        let clock = drumClock, lanes = drumLanesHome
        for l in 0..<4 where evolveSettings[l].on {
            guard let home = lanes[l], clock.frame(ofBeat: 4 * Double(nextEvolveBar[l])) <= frame else { continue }
            evolutions[l].tick(intensity: evolveSettings[l].intensity, home: home)
            // A step of the bar before that the old pattern skipped must not fire late now.
            let barStep = 4 * nextEvolveBar[l] * Int64(DrumLanes.stepsPerBeat[l])
            drumLanes.nextStep[l] = max(drumLanes.nextStep[l], barStep)
            nextEvolveBar[l] += Int64(evolveSettings[l].everyBars)
        }
    }

    /// A lane's hit step: the probability draw (engine stream), the voice picked by the lane's
    /// own stream, then the hit.
    private func fireHit(lane l: Int, step: Int64, at frame: Int64) throws {
        drumLanes.nextStep[l] = step + 1
        guard let lane = drumLanesNow[l] else { return }
        let i = DrumLanes.index(step, of: lane.pattern.count)
        guard stream.next() <= lane.probability * lane.chances[i] else { return }
        let voice = lane.targets[min(Int(drumLanes.pick[l].next() * Double(lane.targets.count)), lane.targets.count - 1)]
        var event = AmbientEvent(frame: max(frame, lastFrame), kind: .drumHit)
        event.hit = KesshoDrumHit.sound(voice, velocity: lane.velocities[i], state: current, sliders: sliders,
                                        engine: { stream.next() }, side: &drumSide,
                                        seed: UInt64(bitPattern: frame) &* 0x2545_F491_4F6C_DD1D &+ UInt64(l),
                                        morphShift: i < lane.morphShifts.count ? lane.morphShifts[i] : 0,
                                        seconds: Double(frame) / sampleRate)
        if lane.pitchRatio != 1 {
            event.hit.frequency *= lane.pitchRatio
            event.hit.pitch *= lane.pitchRatio
        }
        let ratchet = i < lane.ratchets.count ? lane.ratchets[i] : 1
        guard ratchet > 1 else { return try push(event) }
        // A ratchet: the hit r times, min(0.45 step, step / r) apart, each 0.7 × the one before,
        // every decay within 90 % of the spacing.
        let clock = drumClock, spb = DrumLanes.stepsPerBeat[l]
        let stepFrames = Double(clock.frame(ofBeat: Double(step + 1) / spb) - clock.frame(ofBeat: Double(step) / spb))
        let spacing = min(0.45 * stepFrames, stepFrames / Double(ratchet))
        event.hit.decay = max(min(event.hit.decay, 0.9 * spacing / sampleRate * 1000), 1)
        for k in 0..<ratchet {
            var repeated = event
            repeated.frame = event.frame + Int64((Double(k) * spacing).rounded())
            for _ in 0..<k { repeated.hit.velocity *= 0.7 }
            repeated.hit.seed = event.hit.seed &+ UInt64(k)
            try k == 0 ? push(repeated) : pushAhead(repeated)
        }
    }

    /// The web's boundary, in its order: drift, harmony, chord (if new), granulator draws.
    private func phraseBoundary(at frame: Int64) throws {
        guard var d = driver else { return }
        let changed = d.phraseBoundary(phraseIndex: grid.nextPhrase, state: current, coin: { stream.next() })
        driver = d
        if changed { try pushChord(d.harmony.chord, at: frame) }
        try pushGrainSequence(at: frame)
        grid.advance()
        startMelody(at: frame)
    }

    /// Six stagger draws from the engine stream, then the chord. With the chord sequencer off no
    /// chord is applied, and the pad's voices release unless a Euclid lane plays them.
    private func pushChord(_ chord: KesshoChord, at frame: Int64) throws {
        if current.bool("synthChordSequencerEnabled") == false {
            let padLanes = current.bool("leadEuclideanMasterEnabled") == true
                && (1...4).contains { current.bool("leadEuclid\($0)Enabled") == true
                    && (current.string("leadEuclid\($0)Source") ?? "").hasPrefix("synth") }
            if !padLanes { try push(AmbientEvent(frame: frame, kind: .padRelease)) }
            return
        }
        var draws = InlineArray<6, Double>(repeating: 0)
        for i in 0..<6 { draws[i] = stream.next() }
        let spread = current.number("waveSpread") ?? 4
        try push(.chord(chord, at: frame, offsets: PadEnsemble.stagger(draws, waveSpread: spread)))
    }

    /// The granulator's 10 000 draws: the plugin replays them from the stream's counter; the
    /// stream moves past them here.
    private func pushGrainSequence(at frame: Int64) throws {
        try push(.grainSequence(at: frame, streamCounter: stream.generator.counter))
        for _ in 0..<Granulator.sequenceCapacity { _ = stream.next() }
    }

    private func stepMorph(at frame: Int64) throws {
        guard var m = morph else { return }
        m.lastStepFrame = frame
        let position = Double(frame - m.startFrame) / Double(max(m.frames, 1))
        current = position >= 1 ? m.to : KesshoMorph.state(from: m.from, to: m.to, at: position)
        morph = position >= 1 ? nil : m
        try pushSettings(at: frame)
    }

    private func pushSettings(at frame: Int64? = nil) throws {
        try push(.settings(settingsNow, at: max(frame ?? clock().frame, lastFrame)))
    }

    private func push(_ event: AmbientEvent) throws {
        try pushAhead(event)
        lastFrame = max(lastFrame, event.frame)
    }

    /// An event later than what the conductor queues next (a ratchet's repeats): the engine
    /// keeps its queue in frame order, and `lastFrame`, the floor for the next events, stays.
    private func pushAhead(_ event: AmbientEvent) throws {
        var event = event
        event.version = version
        try engine.pushAmbient(event)
    }
}
