import Foundation
import EntrainCore
import EntrainDSP

/// Beat analysis of `beat_in`: onsets, tempo and beat phase, as events stamped with the frame
/// at which they happened in the input.
///
/// Per period: `spectrum.analyse` (the FFTW edge, before the checked render) cuts the input into
/// hops; `analyse` (checked) runs the onset detector, the band flux and the tempo-and-phase
/// filter over them, then collects this period's events in `events` for the plugins that follow it
/// (LED, haptic, ambient) and pushes them into the ring the control side turns into OSC.
struct BeatAnalysisPlugin: EnginePlugin {
    static var descriptor: PluginDescriptor { BeatParameters.descriptor }

    /// At most this many events per period reach the in-engine list (more onsets than this in
    /// one period is not music).
    static var eventCapacity: Int { 32 }

    let sampleRate: Double
    var spectrum: BeatSpectrum
    var detector: OnsetDetector
    var flux: BandFlux
    /// Band levels for light, from the same spectra.
    var bands: BandLevels
    var tracker: BeatFilterTracker
    var active = true
    /// Published beats since the tracker last started publishing.
    var beatCount: Int32 = 0
    /// The band flux summed over the two hops of an analysis frame, and whether the input
    /// sounded in them.
    var frameValue = 0.0
    var frameHops = 0
    var frameSounding = false
    var frameAudible = false
    /// The input's usual energy (about 8 s), below which by 25 dB it no longer counts as sounding.
    var usualEnergy = 0.0
    let longWeight: Double

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
        flux = BandFlux(sampleRate: sampleRate, windowSize: spectrum.windowSize, bins: spectrum.bins)
        bands = BandLevels(sampleRate: sampleRate, windowSize: spectrum.windowSize, bins: spectrum.bins, hopSize: spectrum.hopSize)
        tracker = BeatFilterTracker(sampleRate: sampleRate, hopSize: spectrum.hopSize)
        longWeight = Double(spectrum.hopSize) / sampleRate / 8
        for (index, value) in values.enumerated() { set(index, to: value, glideFrames: 0, exponential: false) }
    }

    func deallocate() {
        spectrum.deallocate()
        detector.deallocate()
        flux.deallocate()
        bands.deallocate()
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
        case BeatParameters.tempoMin: tracker.minimumBPM = value
        case BeatParameters.tempoMax: tracker.maximumBPM = value
        case BeatParameters.minConfidence: tracker.minimumConfidence = Float(value)
        case BeatParameters.tempoPrefer: tracker.preferredBPM = value
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
        guard active else { bands.clear(); return }
        let subs = spectrum.subBlocksPerHop
        for hop in 0..<hops {
            let hopEnd = start + Int64(spectrum.hopEnds[hop])
            let onset = detector.process(magnitudes: spectrum.magnitudes + hop * spectrum.bins,
                                         subEnergies: spectrum.subEnergies + hop * subs, end: hopEnd)
            loudest = max(loudest, detector.hopEnergy)
            frameValue += Double(flux.process(magnitudes: spectrum.magnitudes + hop * spectrum.bins))
            bands.process(magnitudes: spectrum.magnitudes + hop * spectrum.bins)
            // Sounding: above the silence gate and within 25 dB of the usual level (a song's
            // reverb tail after its last note is not music to keep the beat for).
            usualEnergy += (Double(detector.hopEnergy) - usualEnergy) * longWeight
            frameSounding = frameSounding
                || (detector.hopEnergy > detector.silenceEnergy && Double(detector.hopEnergy) > 0.003 * usualEnergy)
            frameAudible = frameAudible || detector.hopEnergy > detector.silenceEnergy
            frameHops += 1
            if frameHops == 2 {
                tracker.frame(frameValue, end: hopEnd, sounding: frameSounding, audible: frameAudible)
                frameValue = 0
                frameHops = 0
                frameSounding = false
                frameAudible = false
            }
            if let onset {
                tracker.onset(frame: onset.frame)
                publish(BeatEvent(kind: .onset, frame: onset.frame, publishedFrame: end, strength: onset.strength), ring)
            }
        }
        while let beat = tracker.beat(before: end) {
            beatCount += 1
            publish(BeatEvent(kind: .beat, frame: beat.frame, publishedFrame: end, strength: beat.confidence,
                              count: beatCount, bpm: Float(tracker.bpm), framesToNext: Int32(beat.period)), ring)
        }
        if !tracker.publishing { beatCount = 0 }
    }

    /// `frames` of beat_in never reached us (the host lost a period): the tracker moves on over them.
    mutating func inputLost(frames: Int) {
        guard active else { return }
        tracker.skip(frames: Int64(frames))
    }

    /// Off, or silence heard for `restSeconds` with no beats published (see `Engine.beatInputResting`).
    var resting: Bool { !active || (!tracker.publishing && Double(spectrum.silentFrames) >= Self.restSeconds * sampleRate) }
    static var restSeconds: Double { 4 }

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
