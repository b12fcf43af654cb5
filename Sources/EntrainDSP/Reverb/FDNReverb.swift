/// The Kessho web engine's FDN reverb (its live JavaScript worklet), restated in Swift:
/// predelay, Schroeder pre-diffusers, a feedback delay network of 8 lines (4 in
/// "lite") mixed by a normalised Hadamard matrix with one-pole damping and slow block-rate
/// modulation, mid and post diffusers, DC blockers and M/S width. 100 % wet.
///
/// Quality fixes the structure and is chosen when the reverb is prepared; everything else
/// may change while it runs. No allocation after `init`.
public struct FDNReverb {
    public enum Quality: Int, Sendable, BitwiseCopyable { case ultra = 0, balanced, lite }
    public enum RoomType: Int, Sendable, BitwiseCopyable { case plate = 0, hall, cathedral, darkHall }

    public struct Settings: Sendable, BitwiseCopyable {
        public var type = RoomType.cathedral
        public var decay = 0.9
        public var size = 2.0
        public var diffusion = 1.0
        public var modulation = 0.4
        public var predelayMilliseconds = 60.0
        public var damping = 0.2
        public var width = 0.85
        public init() {}
    }

    public let sampleRate: Double
    public let quality: Quality
    let lineCount: Int
    /// Nominal line lengths at this rate and size 1 (samples), and the buffers (4× that).
    let baseLengths: UnsafeMutablePointer<Double>
    let lines: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let lineCapacity: UnsafeMutablePointer<Int>
    /// Each line's write index, kept in 0..<its capacity (a wrap, not a division, per frame).
    let writeIndex: UnsafeMutablePointer<Int>
    let lengths: UnsafeMutablePointer<Double>
    /// Each line's read tap (whole samples behind the write index, and the fraction): the LFOs
    /// move only every 128 frames, so the tap is worked out then (and on `apply`), not per frame.
    let tapWhole: UnsafeMutablePointer<Int>
    let tapFraction: UnsafeMutablePointer<Float>
    let reads: UnsafeMutablePointer<Float>
    let damped: UnsafeMutablePointer<Float>
    let dampState: UnsafeMutablePointer<Float>
    var preL: AllpassChain, preR: AllpassChain
    var midL: AllpassChain, midR: AllpassChain
    var postL: AllpassChain, postR: AllpassChain
    let predelayBuffer: UnsafeMutablePointer<Float>
    let predelayCapacity: Int
    var predelayPosition = 0
    var predelayFrames = 0
    /// The mid diffusers' inputs for up to `scratchFrames` frames (left, then right).
    let scratch: UnsafeMutablePointer<Float>
    static var scratchFrames: Int { 256 }

    // Derived from the settings.
    var feedback: Float = 0.99
    var modulationDepth: Float = 0.4
    var widthAmount: Float = 0.85
    var dampingTarget: Float = 0.2
    var damping: Float = 0.5  // the worklet starts here and glides to the setting
    // Block-rate triangle LFOs (four; lite uses two).
    var lfoPhases = InlineArray<4, Double>(repeating: 0)
    var lfoValues = InlineArray<4, Float>(repeating: 0)
    var blockCounter = 0
    // DC blockers.
    var dcInL: Float = 0, dcOutL: Float = 0, dcInR: Float = 0, dcOutR: Float = 0

    static var lfoRates: InlineArray<4, Double> { [0.023, 0.031, 0.041, 0.053] }

    public init(sampleRate: Double, quality: Quality, settings: Settings = Settings()) {
        self.sampleRate = sampleRate
        self.quality = quality
        let scale = sampleRate / 48_000
        let milliseconds: [Double] = quality == .lite ? [41.3, 59.7, 79.1, 103.7]
            : [37.3, 43.7, 53.1, 61.7, 71.3, 83.9, 97.1, 109.3]
        lineCount = milliseconds.count
        baseLengths = .allocate(capacity: lineCount)
        lines = .allocate(capacity: lineCount)
        lineCapacity = .allocate(capacity: lineCount)
        lengths = .allocate(capacity: lineCount)
        writeIndex = .allocate(capacity: lineCount)
        writeIndex.initialize(repeating: 0, count: lineCount)
        tapWhole = .allocate(capacity: lineCount)
        tapWhole.initialize(repeating: 1, count: lineCount)
        tapFraction = .allocate(capacity: lineCount)
        tapFraction.initialize(repeating: 0, count: lineCount)
        reads = .allocate(capacity: lineCount)
        damped = .allocate(capacity: lineCount)
        dampState = .allocate(capacity: lineCount)
        for (j, ms) in milliseconds.enumerated() {
            // The worklet applies rate/48 kHz on top of the ms → samples conversion (exact at 48 kHz).
            let base = ms * scale * sampleRate / 1000
            baseLengths[j] = base
            let capacity = Int(base * 4) + 4
            lineCapacity[j] = capacity
            lines[j] = .allocate(capacity: capacity)
            lines[j].initialize(repeating: 0, count: capacity)
            lengths[j] = base * settings.size
            reads[j] = 0
            damped[j] = 0
            dampState[j] = 0
        }
        switch quality {
        case .ultra:
            preL = AllpassChain(delays: [53, 79, 107, 139, 173, 211, 257, 307, 367, 431], scale: scale, gain: 0.5)
            preR = AllpassChain(delays: [59, 83, 113, 149, 181, 223, 269, 317, 379, 443], scale: scale, gain: 0.5)
            midL = AllpassChain(delays: [127, 179, 233, 293, 359, 431], scale: scale, gain: 0.5)
            midR = AllpassChain(delays: [137, 191, 251, 307, 373, 449], scale: scale, gain: 0.5)
            postL = AllpassChain(delays: [167, 211, 263, 317, 383, 449, 521, 599, 683, 773], scale: scale, gain: 0.5)
            postR = AllpassChain(delays: [179, 227, 277, 331, 397, 467, 541, 617, 701, 797], scale: scale, gain: 0.5)
        case .balanced:
            preL = AllpassChain(delays: [89, 127, 179, 233, 307, 401], scale: scale, gain: 0.5)
            preR = AllpassChain(delays: [97, 137, 191, 251, 317, 419], scale: scale, gain: 0.5)
            midL = AllpassChain(delays: [167, 229, 313, 421], scale: scale, gain: 0.5)
            midR = AllpassChain(delays: [173, 241, 331, 433], scale: scale, gain: 0.5)
            postL = AllpassChain(delays: [211, 283, 367, 457, 547, 641], scale: scale, gain: 0.5)
            postR = AllpassChain(delays: [223, 293, 379, 467, 557, 653], scale: scale, gain: 0.5)
        case .lite:
            preL = AllpassChain(delays: [113, 197, 293], scale: scale, gain: 0.5)
            preR = AllpassChain(delays: [127, 211, 307], scale: scale, gain: 0.5)
            midL = AllpassChain(delays: [], scale: scale, gain: 0.5)
            midR = AllpassChain(delays: [], scale: scale, gain: 0.5)
            postL = AllpassChain(delays: [179, 283], scale: scale, gain: 0.5)
            postR = AllpassChain(delays: [191, 307], scale: scale, gain: 0.5)
        }
        predelayCapacity = Int(0.3 * sampleRate) + 1
        predelayBuffer = .allocate(capacity: 2 * predelayCapacity)  // left, then right
        predelayBuffer.initialize(repeating: 0, count: 2 * predelayCapacity)
        scratch = .allocate(capacity: 2 * Self.scratchFrames)
        for k in 0..<4 { lfoPhases[k] = Double(k) * 0.25 }
        updateLFOs()
        apply(settings)
    }

    public func deallocate() {
        for j in 0..<lineCount { lines[j].deallocate() }
        baseLengths.deallocate()
        lines.deallocate()
        lineCapacity.deallocate()
        lengths.deallocate()
        writeIndex.deallocate()
        tapWhole.deallocate()
        tapFraction.deallocate()
        reads.deallocate()
        damped.deallocate()
        dampState.deallocate()
        preL.deallocate(); preR.deallocate(); midL.deallocate(); midR.deallocate(); postL.deallocate(); postR.deallocate()
        predelayBuffer.deallocate()
        scratch.deallocate()
    }

    /// Take new settings (any time; the structure stays).
    public mutating func apply(_ s: Settings) {
        let (base, presetDiffusion, presetModulation): (Double, Double, Double)
        switch s.type {
        case .plate: (base, presetDiffusion, presetModulation) = (0.88, 0.80, 0.25)
        case .hall: (base, presetDiffusion, presetModulation) = (0.92, 0.85, 0.30)
        case .cathedral: (base, presetDiffusion, presetModulation) = (0.96, 0.95, 0.40)
        case .darkHall: (base, presetDiffusion, presetModulation) = (0.94, 0.90, 0.30)
        }
        feedback = Float(min(0.995, base + (1 - base) * s.decay * 0.9))
        let effective = presetDiffusion * (0.6 + 0.4 * s.diffusion)
        var pre = 0.5 + 0.4 * effective, mid = 0.45 + 0.4 * effective, post = 0.4 + 0.4 * effective
        switch quality {
        case .ultra: pre *= 0.92; mid *= 0.90; post *= 0.88
        case .lite: pre *= 0.95; post *= 0.95
        case .balanced: break
        }
        preL.setGain(Float(pre)); preR.setGain(Float(pre))
        midL.setGain(Float(mid)); midR.setGain(Float(mid))
        postL.setGain(Float(post)); postR.setGain(Float(post))
        modulationDepth = Float(presetModulation * s.modulation)
        for j in 0..<lineCount { lengths[j] = baseLengths[j] * s.size }
        predelayFrames = min(predelayCapacity - 1, Int(s.predelayMilliseconds / 1000 * sampleRate))
        dampingTarget = Float(s.damping)
        widthAmount = Float(s.width)
        updateTaps()
    }

    /// The stored feedback gain (for tests and displays).
    public var feedbackGain: Float { feedback }

    mutating func updateLFOs() {
        for k in 0..<4 {
            let p = lfoPhases[k]
            lfoValues[k] = Float(1 - abs(2 * p - 1))  // triangle 0…1…0
        }
    }

    /// Every line's read tap from its length and LFO (after the LFOs step or the settings change).
    mutating func updateTaps() {
        for j in 0..<lineCount {
            let lfo = lite ? (j < 2 ? lfoValues[0] : lfoValues[2]) : lfoValues[j >> 1]
            let mod = Double((lfo - 0.5) * modulationDepth)
            let length = lengths[j] * (1 + 0.015 * mod)
            let d = min(max(length, 1), Double(lineCapacity[j] - 2))
            let whole = Int(d)
            tapWhole[j] = whole
            tapFraction[j] = Float(d - Double(whole))
        }
    }

    /// One stereo frame in, one out.
    @inline(__always)
    public mutating func process(_ inL: Float, _ inR: Float) -> (Float, Float) {
        stepLFOs()
        var xL = inL, xR = inR
        predelay(&xL, &xR)
        let (outL, outR, midL, midR) = network(preL.process(xL), preR.process(xR))
        if lite { return finish(postL.process(outL), postR.process(outR)) }
        let mL = self.midL.process(midL), mR = self.midR.process(midR)
        return finish(postL.process(0.7 * outL + 0.3 * mL), postR.process(0.7 * outR + 0.3 * mR))
    }

    /// `frames` stereo frames in place in `left`/`right`: the same samples as `process` frame by
    /// frame. Only the feedback network needs its frames in order; each diffuser chain takes the
    /// whole block stage by stage (a stage's frames wait on each other only through its delay,
    /// dozens of frames apart), where frame by frame each frame waited on the chain's every stage.
    @inline(__always)
    public mutating func process(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(Self.scratchFrames, frames - done)
            let l = left + done, r = right + done
            let midInL = scratch, midInR = scratch + Self.scratchFrames
            for n in 0..<count { predelay(&l[n], &r[n]) }
            preL.process(l, frames: count)
            preR.process(r, frames: count)
            for n in 0..<count {
                stepLFOs()
                (l[n], r[n], midInL[n], midInR[n]) = network(l[n], r[n])
            }
            if !lite {
                midL.process(midInL, frames: count)
                midR.process(midInR, frames: count)
                for n in 0..<count {
                    l[n] = 0.7 * l[n] + 0.3 * midInL[n]
                    r[n] = 0.7 * r[n] + 0.3 * midInR[n]
                }
            }
            postL.process(l, frames: count)
            postR.process(r, frames: count)
            for n in 0..<count { (l[n], r[n]) = finish(l[n], r[n]) }
            done += count
        }
    }

    /// The LFOs step every 128 frames, as the worklet's do (then the taps move); the damping
    /// glides a little each frame.
    @inline(__always)
    mutating func stepLFOs() {
        blockCounter += 1
        if blockCounter == 128 {
            blockCounter = 0
            for k in 0..<4 {
                var p = lfoPhases[k] + Self.lfoRates[k] * 128 / sampleRate
                if p >= 1 { p -= 1 }
                lfoPhases[k] = p
            }
            updateLFOs()
            updateTaps()
        }
        damping += (dampingTarget - damping) * 0.0001
    }

    /// The predelay (when set) on one frame, in place.
    @inline(__always)
    mutating func predelay(_ xL: inout Float, _ xR: inout Float) {
        guard predelayFrames > 0 else { return }
        predelayBuffer[predelayPosition] = xL
        predelayBuffer[predelayCapacity + predelayPosition] = xR
        var read = predelayPosition - predelayFrames
        if read < 0 { read += predelayCapacity }
        xL = predelayBuffer[read]
        xR = predelayBuffer[predelayCapacity + read]
        predelayPosition = predelayPosition + 1 == predelayCapacity ? 0 : predelayPosition + 1
    }

    /// One frame of the feedback network from the pre-diffused input `dL`/`dR`: the lines'
    /// output mix before the post diffusers (and, but in lite, before the mid diffusers' share),
    /// and the mid diffusers' inputs.
    @inline(__always)
    mutating func network(_ dL: Float, _ dR: Float) -> (Float, Float, Float, Float) {
        let n = lineCount
        for j in 0..<n {
            let r = read(line: j)
            reads[j] = r
            let c = damping
            let y = r * (1 - c) + dampState[j] * c
            dampState[j] = y
            damped[j] = y
        }
        hadamard(damped, n)

        var outL: Float, outR: Float, midL: Float = 0, midR: Float = 0
        if lite {
            for j in 0..<n { write(line: j, Self.softClip(damped[j] * feedback + 0.25 * (j < 2 ? dL : dR))) }
            outL = 0.6 * (reads[0] + reads[2] + 0.3 * reads[1])
            outR = 0.6 * (reads[1] + reads[3] + 0.3 * reads[0])
        } else {
            midL = (damped[0] + damped[2] + damped[4] + damped[6]) * 0.25
            midR = (damped[1] + damped[3] + damped[5] + damped[7]) * 0.25
            for j in 0..<n { write(line: j, Self.softClip(damped[j] * feedback + 0.2 * (j < 4 ? dL : dR))) }
            outL = 0.5 * (reads[0] + reads[2] + reads[4] + reads[6] + 0.3 * reads[1] + 0.3 * reads[3])
            outR = 0.5 * (reads[1] + reads[3] + reads[5] + reads[7] + 0.3 * reads[0] + 0.3 * reads[2])
        }
        for j in 0..<n {
            let next = writeIndex[j] + 1
            writeIndex[j] = next == lineCapacity[j] ? 0 : next
        }
        return (outL, outR, midL, midR)
    }

    /// DC blockers, then the M/S width, on one frame out of the post diffusers.
    @inline(__always)
    mutating func finish(_ outL: Float, _ outR: Float) -> (Float, Float) {
        let yL = outL - dcInL + 0.9975 * dcOutL
        dcInL = outL; dcOutL = yL
        let yR = outR - dcInR + 0.9975 * dcOutR
        dcInR = outR; dcOutR = yR
        let mid = (yL + yR) * 0.5, side = (yL - yR) * 0.5 * widthAmount
        return (mid + side, mid - side)
    }

    var lite: Bool { lineCount == 4 }

    /// Linear interpolation at line `j`'s tap (1 ≤ whole ≤ capacity − 2 behind the write index).
    @inline(__always)
    func read(line j: Int) -> Float {
        let capacity = lineCapacity[j], whole = tapWhole[j], fraction = tapFraction[j]
        var i0 = writeIndex[j] - whole
        if i0 < 0 { i0 += capacity }
        var i1 = i0 - 1
        if i1 < 0 { i1 += capacity }
        let buffer = lines[j]
        return buffer[i0] * (1 - fraction) + buffer[i1] * fraction
    }

    @inline(__always)
    func write(line j: Int, _ x: Float) {
        lines[j][writeIndex[j]] = x
    }

    /// In-place fast Walsh–Hadamard transform, normalised (orthonormal: energy kept).
    @inline(__always)
    func hadamard(_ v: UnsafeMutablePointer<Float>, _ n: Int) {
        var h = 1
        while h < n {
            var i = 0
            while i < n {
                for k in i..<(i + h) {
                    let a = v[k], b = v[k + h]
                    v[k] = a + b
                    v[k + h] = a - b
                }
                i += 2 * h
            }
            h *= 2
        }
        let scale: Float = n == 8 ? 0.353_553_39 : 0.5
        for k in 0..<n { v[k] *= scale }
    }

    /// The worklet's soft clip, discontinuity at ±1 included (it jumps to ±0.5 there).
    @inline(__always)
    static func softClip(_ x: Float) -> Float {
        if x > 1 { return 1 - 1 / (x + 1) }
        if x < -1 { return -1 + 1 / (1 - x) }
        return x
    }
}
