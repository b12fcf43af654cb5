import EntrainDSP

/// Planar float samples to interleaved little-endian PCM bytes (32-bit float as is; 24 and 16-bit
/// integers TPDF-dithered), the one conversion every file format shares: a FLAC render holds the
/// very codes the WAV render of the same job holds. Deterministic: same input, same bytes.
struct PCMEncoder {
    let format: WAVWriter.Format
    let channels: Int
    private(set) var bytes: [UInt8] = []
    private var dither = RandomSource(seed: 0x5450_4446)
    private var stereo16 = StereoDither16(seed: 0x5450_4446)

    init(format: WAVWriter.Format, channels: Int) {
        self.format = format
        self.channels = channels
    }

    /// Convert frames given as one buffer per channel (all the same length) into `bytes`;
    /// returns how many bytes of it hold them.
    mutating func encode(_ channelBuffers: [UnsafeBufferPointer<Float>]) -> Int {
        precondition(channelBuffers.count == channels)
        let n = channelBuffers[0].count
        let count = n * channels * format.bytesPerSample
        if bytes.count < count { bytes = [UInt8](repeating: 0, count: count) }
        let channels = self.channels, format = self.format
        var rng = dither  // a local copy stays in registers; written back below
        defer { dither = rng }
        var stereo16 = self.stereo16
        defer { self.stereo16 = stereo16 }
        bytes.withUnsafeMutableBytes { raw in
            var first = 0  // frames already converted
            if format == .pcm16 && channels == 2 && n >= 2, let base = raw.baseAddress {
                first = stereo16.convert(channelBuffers[0], channelBuffers[1], into: base, frames: n)
            }
            for c in 0..<channels {
                let input = channelBuffers[c]
                switch format {
                case .float32:
                    let out = raw.bindMemory(to: UInt32.self)
                    for i in first..<n { out[i * channels + c] = input[i].bitPattern.littleEndian }
                case .pcm16:
                    let out = raw.bindMemory(to: Int16.self)
                    for i in first..<n {
                        out[i * channels + c] = Int16(truncatingIfNeeded: Self.quantise(input[i], scale: 32768, &rng)).littleEndian
                    }
                case .pcm24:
                    for i in first..<n {
                        let code = Self.quantise(input[i], scale: 8_388_608, &rng)
                        let o = (i * channels + c) * 3
                        raw[o] = UInt8(truncatingIfNeeded: code)
                        raw[o + 1] = UInt8(truncatingIfNeeded: code >> 8)
                        raw[o + 2] = UInt8(truncatingIfNeeded: code >> 16)
                    }
                }
            }
        }
        return count
    }

    /// An integer code for one sample, TPDF-dithered, for full scale `scale` = 2^(bits-1) (readers
    /// divide by it; +1.0 clamps to the largest code). Branch-free: it runs for every sample.
    @inline(__always)
    static func quantise(_ sample: Float, scale: Double, _ rng: inout RandomSource) -> Int32 {
        // TPDF: two uniform variables of ±0.5 LSB each, from the two halves of one random word.
        let bits = rng.nextUInt32()
        let noise = Double(Int32(bits & 0xFFFF) + Int32(bits >> 16)) * (1.0 / 65536) - 1
        let x = Double(sample == sample ? sample : 0) * scale + noise  // NaN becomes silence
        let clamped = Swift.min(Swift.max(x, -scale), scale - 1)
        // Adding 1.5·2^52 rounds to the nearest integer in the low mantissa bits.
        let magic = 6_755_399_441_055_744.0
        return Int32(truncatingIfNeeded: Int64(bitPattern: (clamped + magic).bitPattern) - Int64(bitPattern: magic.bitPattern))
    }
}
