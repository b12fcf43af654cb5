import Foundation

/// Reads the WAV files entrain writes (float 32, PCM 16/24), for checking renders.
public struct WAVFile {
    public let sampleRate: Int
    public let channels: Int
    public let formatTag: Int
    public let bitsPerSample: Int
    /// One array per channel, as floats in -1...1.
    public let samples: [[Float]]

    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        func u32(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 | Int(data[o + 2]) << 16 | Int(data[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(data[o]) | Int(data[o + 1]) << 8 }
        guard data.count >= 12, String(decoding: data[0..<4], as: UTF8.self) == "RIFF",
              String(decoding: data[8..<12], as: UTF8.self) == "WAVE" else { throw WAVReadError.notWAV }
        var offset = 12
        var format = (tag: 0, channels: 0, rate: 0, bits: 0)
        var payload: Range<Int>?
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                format = (u16(offset + 8), u16(offset + 10), u32(offset + 12), u16(offset + 22))
            } else if id == "data" {
                payload = (offset + 8)..<min(data.count, offset + 8 + size)
            }
            offset += 8 + size + (size & 1)
        }
        guard let payload, format.channels > 0 else { throw WAVReadError.notWAV }
        sampleRate = format.rate
        channels = format.channels
        formatTag = format.tag
        bitsPerSample = format.bits
        let bytes = format.bits / 8
        let frames = payload.count / (bytes * format.channels)
        var out = [[Float]](repeating: [], count: format.channels)
        for c in 0..<format.channels { out[c].reserveCapacity(frames) }
        data.withUnsafeBytes { raw in
            for f in 0..<frames {
                for c in 0..<format.channels {
                    let o = payload.lowerBound + (f * format.channels + c) * bytes
                    let value: Float
                    switch (format.tag, bytes) {
                    case (3, 4): value = Float(bitPattern: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self))
                    case (1, 3):
                        let v = Int32(raw[o]) | Int32(raw[o + 1]) << 8 | Int32(Int8(bitPattern: raw[o + 2])) << 16
                        value = Float(v) / 8_388_608
                    case (1, 2): value = Float(raw.loadUnaligned(fromByteOffset: o, as: Int16.self)) / 32768
                    default: value = .nan
                    }
                    out[c].append(value)
                }
            }
        }
        samples = out
    }
}

public enum WAVReadError: Error { case notWAV }
