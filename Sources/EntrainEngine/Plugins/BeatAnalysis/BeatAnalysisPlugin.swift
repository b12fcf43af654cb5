import EntrainCore
import EntrainDSP

/// Beat analysis of `beat_in`: onsets, tempo and beat phase, as events stamped with the frame
/// at which they happened in the input.
///
/// Per period: `spectrum.analyse` (the FFTW edge, before the checked render) cuts the input into
/// hops; `analyse` (checked) runs the onset detector, the tempo estimator and the beat tracker
/// over them, then collects this period's events in `events` for the plugins that follow it
/// (LED, haptic, ambient) and pushes them into the ring the control side turns into OSC.
struct BeatAnalysisPlugin: EnginePlugin {
    static var descriptor: PluginDescriptor { BeatParameters.descriptor }

    /// At most this many events per period reach the in-engine list (more onsets than this in
    /// one period is not music).
    static var eventCapacity: Int { 32 }

    let sampleRate: Double
    var spectrum: BeatSpectrum
    var detector: OnsetDetector
    var tempo: TempoEstimator
    var tracker: BeatTracker
    var active = true
    var minimumConfidence: Float = 0.6
    /// Published beats since the tracker last (re)gained confidence.
    var beatCount: Int32 = 0

    /// This period's events, in the order found (onsets may be stamped before the period).
    var events = InlineArray<32, BeatEvent>(repeating: BeatEvent(kind: .onset, frame: 0, strength: 0))
    var eventCount = 0
    /// The host period's events, all its chunks' (a period longer than `Engine.maximumChunk` is
    /// analysed in pieces): what the JACK client turns into MIDI. Reset by `beginPeriod`.
    var periodEvents = InlineArray<64, BeatEvent>(repeating: BeatEvent(kind: .onset, frame: 0, strength: 0))
    var periodEventCount = 0
    /// Loudest hop (mean square) since the control side last read it; events that did not fit.
    var loudest: Float = 0
    var dropped = 0

    init(sampleRate: Double, values: [Double]) {
        self.init(sampleRate: sampleRate, values: values, maximumFrames: Engine.maximumChunk)
    }

    init(sampleRate: Double, values: [Double], maximumFrames: Int) {
        self.sampleRate = sampleRate
        spectrum = BeatSpectrum(sampleRate: sampleRate, maximumFrames: maximumFrames)
        detector = OnsetDetector(sampleRate: sampleRate, hopSize: spectrum.hopSize, windowSize: spectrum.windowSize,
                                 bins: spectrum.bins, subBlockSize: spectrum.subBlockSize)
        tempo = TempoEstimator(hopRate: sampleRate / Double(spectrum.hopSize))
        tracker = BeatTracker(sampleRate: sampleRate)
        for (index, value) in values.enumerated() { set(index, to: value, glideFrames: 0, exponential: false) }
    }

    func deallocate() {
        spectrum.deallocate()
        detector.deallocate()
        tempo.deallocate()
        tracker.deallocate()
    }

    mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        let milliseconds = sampleRate / 1000
        switch index {
        case BeatParameters.active: active = value != 0
        case BeatParameters.method: detector.method = value == 0 ? .flux : .energy
        case BeatParameters.silence: detector.silenceEnergy = Float(FastMath.gain(fromDecibels: 2 * value))
        case BeatParameters.fluxThreshold: detector.fluxThreshold = Float(value)
        case BeatParameters.fluxLowEmphasis: detector.lowGain = Float(FastMath.gain(fromDecibels: value))
        case BeatParameters.fluxMinInterval: detector.fluxMinIntervalFrames = Int64(value * milliseconds)
        case BeatParameters.energyThreshold: detector.energyThreshold = Float(value)
        case BeatParameters.energyRefractory: detector.energyRefractoryFrames = Int64(value * milliseconds)
        case BeatParameters.tempoMin: tempo.minimumBPM = value
        case BeatParameters.tempoMax: tempo.maximumBPM = value
        case BeatParameters.minConfidence: minimumConfidence = Float(value)
        default: break
        }
    }

    /// Analysis runs once per period in `analyse`; the plugin writes no output port.
    mutating func render(_ io: PortBuffers, _ range: Range<Int>) {}

    /// Analyse the hops `spectrum` completed in the period starting at engine frame `start`,
    /// `frames` long; publish onsets and the beats predicted inside the period.
    mutating func analyse(start: Int64, frames: Int, ring: UnsafePointer<BeatEventRing>) {
        eventCount = 0
        let end = start + Int64(frames)
        let hops = spectrum.hopCount
        spectrum.hopCount = 0  // read once: a render without a new analysis sees no hops
        guard active else { return }
        let subs = spectrum.subBlocksPerHop
        for hop in 0..<hops {
            let hopEnd = start + Int64(spectrum.hopEnds[hop])
            let onset = detector.process(magnitudes: spectrum.magnitudes + hop * spectrum.bins,
                                         subEnergies: spectrum.subEnergies + hop * subs, end: hopEnd)
            loudest = max(loudest, detector.hopEnergy)
            // The tempo follows the onsets weighted by their loudness accents: in the raw flux
            // a broadband hi-hat weighs as much as a kick and pulls towards double time.
            if tempo.push(onset?.strength ?? 0), tempo.bpm > 0 { tracker.setTempo(tempo.bpm, now: hopEnd) }
            if let onset {
                tracker.onset(frame: onset.frame, strength: onset.strength)
                publish(BeatEvent(kind: .onset, frame: onset.frame, publishedFrame: end, strength: onset.strength), ring)
            }
        }
        while let beat = tracker.beat(before: end) {
            let playing = beat.frame - tracker.lastOnsetFrame < 3 * Int64(beat.period) / 2
            guard beat.confidence >= minimumConfidence, playing else {
                beatCount = 0
                continue
            }
            beatCount += 1
            publish(BeatEvent(kind: .beat, frame: beat.frame, publishedFrame: end, strength: beat.confidence,
                              count: beatCount, bpm: Float(tracker.bpm), framesToNext: Int32(beat.period)), ring)
        }
    }

    /// A new host period starts (before its first chunk).
    mutating func beginPeriod() { periodEventCount = 0 }

    private mutating func publish(_ event: BeatEvent, _ ring: UnsafePointer<BeatEventRing>) {
        if eventCount < Self.eventCapacity {
            events[eventCount] = event
            eventCount += 1
        }
        if periodEventCount < 64 {
            periodEvents[periodEventCount] = event
            periodEventCount += 1
        }
        if !ring.pointee.push(event) { dropped += 1 }
    }
}
