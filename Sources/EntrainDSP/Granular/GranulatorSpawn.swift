extension Granulator {
    /// Uniform in [0, 1) with Float32 resolution, like the web's Float32Array sequence.
    @inlinable @inline(__always)
    static func unit(_ random: inout RandomSource) -> Double {
        Double(random.nextUInt32() >> 8) * (1.0 / 16_777_216)
    }

    /// One spawn attempt. Draw order as the worklet: probability, then (only if a grain is
    /// free) size, spray, jitter, pitch, pan.
    @inlinable
    mutating func spawn() {
        if draw() > probability { return }
        var slot = -1
        for i in 0..<Self.maxGrains where !grains[i].active { slot = i; break }
        if slot < 0 { return }
        let length = max(1, Int((sizeMin + draw() * (sizeMax - sizeMin)) * samplesPerMillisecond))
        let back = spray + draw() * spray
        let offset = (draw() - 0.5) * 2 * jitter
        let n = Double(Self.bufferLength)
        var start = FastMath.floor(Double(writePosition) - back + offset)
        start -= FastMath.floor(start / n) * n
        let semitones: Double
        switch pitchMode {
        case .harmonic: semitones = Self.harmonicIntervals[min(harmonicCount - 1, Int(draw() * Double(harmonicCount)))]
        case .random: semitones = (draw() - 0.5) * 2 * pitchSpread
        }
        let pan = (draw() - 0.5) * 2 * stereoSpread
        let panIndex = min(Self.panSteps - 1, max(0, Int((pan + 1) / 2 * Double(Self.panSteps - 1))))
        var g = Grain()
        g.active = true
        g.start = start
        g.length = length
        g.rate = FastMath.exp2((semitones + transpose) / 12)
        g.gainL = panL[panIndex]
        g.gainR = panR[panIndex]
        grains[slot] = g
        activeCount += 1
        startedCount += 1
    }

    /// Sum every active grain's windowed, panned, linearly interpolated read; retire finished ones.
    @inlinable
    mutating func playGrains() -> (Float, Float) {
        var sumL: Float = 0, sumR: Float = 0
        if activeCount == 0 { return (0, 0) }
        let n = Self.bufferLength
        let length = Double(n)
        for i in 0..<Self.maxGrains where grains[i].active {
            var g = grains[i]
            var position = g.start + Double(g.elapsed) * g.rate
            // Inside the buffer already (nearly always), position / length rounds below 1 and
            // the wrap would subtract 0: the division is needed only past the ends.
            if position >= length || position < 0 { position -= FastMath.floor(position / length) * length }
            var index = Int(position)
            if index >= n { index = 0 }  // rounding at the top edge
            let next = index + 1 == n ? 0 : index + 1
            let fraction = Float(position - Double(index))
            let a = bufferL[index], b = bufferL[next]
            let c = bufferR[index], d = bufferR[next]
            let w = window[min(Self.windowLength - 1, Int(Double(g.elapsed) / Double(g.length) * Double(Self.windowLength)))]
            sumL += (a + (b - a) * fraction) * w * g.gainL
            sumR += (c + (d - c) * fraction) * w * g.gainR
            g.elapsed += 1
            if g.elapsed >= g.length {
                g.active = false
                activeCount -= 1
            }
            grains[i] = g
        }
        return (sumL, sumR)
    }
}
