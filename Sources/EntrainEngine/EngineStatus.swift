import Foundation
import Synchronization

/// What the process thread reports back, read by the control side without locks; and the one
/// request that must never wait in a queue: panic.
public struct EngineStatus: ~Copyable {
    public let framesRendered = Atomic<Int>(0)
    /// Largest |sample| per channel of entrainment_L/R since the last `takePeaks()`, as Float bits.
    let peakLeft = Atomic<UInt32>(0)
    let peakRight = Atomic<UInt32>(0)
    /// Set when a stop fade has reached silence.
    public let stopped = Atomic<Bool>(false)
    /// Set by the engine once it has applied a panic (cleared on resume).
    public let panicked = Atomic<Bool>(false)
    /// Control → engine: panic (true) or resume (false). A flag, not a command: no queue can
    /// fill in front of it. The engine reads it at the start of every period.
    public let panicRequested = Atomic<Bool>(false)
    /// Beat analysis: loudest hop of beat_in (mean square, Float bits) since the last
    /// `takeBeatLevel()`; the tracker's tempo and confidence; events the ring could not take.
    let beatLevel = Atomic<UInt32>(0)
    let beatBPM = Atomic<UInt32>(0)
    let beatConfidence = Atomic<UInt32>(0)
    public let beatEventsDropped = Atomic<Int>(0)
    /// The latest beat the tracker found on beat_in: its engine frame and count (the ambient
    /// engine's lead and drums may keep time with it).
    public let lastBeatFrame = Atomic<Int>(-1)
    public let lastBeatCount = Atomic<Int>(0)
    /// The LED thermal state in force (0 nominal … 3 critical), the worse of model and fixture.
    public let lightThermalState = Atomic<Int>(0)
    /// Frames the hosted plugins delay the sound by (the slowest bus's chain, as they report):
    /// added to the ports' latency and waited for by light and haptics.
    public let insertLatency = Atomic<Int>(0)
    /// The beat analysis's 16 band levels as bytes (0…255, band 0 in the low byte of the first
    /// word): what `/beat/bands` reports. Each period stores the levels, which hold their peaks.
    let bandsLow = Atomic<UInt64>(0)
    let bandsHigh = Atomic<UInt64>(0)

    public init() {}

    /// Peaks since the last call (linear), and reset them.
    public func takePeaks() -> (left: Float, right: Float) {
        (Float(bitPattern: peakLeft.exchange(0, ordering: .relaxed)),
         Float(bitPattern: peakRight.exchange(0, ordering: .relaxed)))
    }

    /// Process-thread side: raise the stored peak if `value` is larger. Non-negative floats
    /// order like their bit patterns, so an integer max is a float max.
    @inline(__always)
    func raisePeak(_ atomic: borrowing Atomic<UInt32>, _ value: Float) {
        let bits = value.bitPattern
        var current = atomic.load(ordering: .relaxed)
        while bits > current {
            let (exchanged, original) = atomic.compareExchange(expected: current, desired: bits, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    /// beat_in's loudest hop since the last call, in dBFS (RMS); and reset it.
    public func takeBeatLevel() -> Float {
        let meanSquare = Float(bitPattern: beatLevel.exchange(0, ordering: .relaxed))
        return meanSquare > 1e-15 ? 10 * log10(meanSquare) : -150
    }

    /// The band levels now, 0…1, lowest band first.
    public func bandLevels() -> [Float] {
        let words = [bandsLow.load(ordering: .relaxed), bandsHigh.load(ordering: .relaxed)]
        return (0..<16).map { Float((words[$0 / 8] >> (UInt64($0 % 8) * 8)) & 0xFF) / 255 }
    }

    @inline(__always)
    func publishBands(_ levels: UnsafePointer<Float>) {
        var low: UInt64 = 0, high: UInt64 = 0
        for b in 0..<8 {
            low |= UInt64(min(255, max(0, levels[b] * 255 + 0.5))) << (UInt64(b) * 8)
            high |= UInt64(min(255, max(0, levels[b + 8] * 255 + 0.5))) << (UInt64(b) * 8)
        }
        bandsLow.store(low, ordering: .relaxed)
        bandsHigh.store(high, ordering: .relaxed)
    }

    public var beatBPMValue: Float { Float(bitPattern: beatBPM.load(ordering: .relaxed)) }
    public var beatConfidenceValue: Float { Float(bitPattern: beatConfidence.load(ordering: .relaxed)) }

    @inline(__always)
    func publishBeat(level: Float, bpm: Float, confidence: Float, dropped: Int) {
        raisePeak(beatLevel, level)
        beatBPM.store(bpm.bitPattern, ordering: .relaxed)
        beatConfidence.store(confidence.bitPattern, ordering: .relaxed)
        beatEventsDropped.store(dropped, ordering: .relaxed)
    }

    @inline(__always)
    func publishPeaks(left: Float, right: Float) {
        raisePeak(peakLeft, left)
        raisePeak(peakRight, right)
    }
}
