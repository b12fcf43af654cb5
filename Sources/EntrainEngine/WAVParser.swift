/// The format chunk, reduced to what decoding needs.
struct WAVFormat {
    enum Encoding {
        case pcm, float
        var tag: Int { self == .pcm ? 1 : 3 }
    }
    var encoding: Encoding
    var channels: Int
    var sampleRate: Int
    /// Container size: PCM samples narrower than it are left-justified, so reading the container works.
    var bytesPerSample: Int
}

/// Walks the RIFF chunks of a WAV file held in memory and decodes its samples. Every offset is
/// checked against the buffer before it is read, so a hostile file cannot make it trap.
struct WAVParser {
    let bytes: UnsafeRawBufferPointer

    private func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
    private func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
    private func fourCC(_ o: Int) -> String {
        // Printable ASCII only, so an error message never carries control bytes.
        String(bytes[o..<(o + 4)].map { (32...126).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }

    func parse() throws -> (format: WAVFormat, samples: [[Float]]) {
        guard bytes.count >= 12 else {
            throw bytes.count >= 4 && fourCC(0) == "RIFF" ? WAVReadError.truncated("RIFF header") : WAVReadError.notWAV
        }
        guard fourCC(0) == "RIFF", fourCC(8) == "WAVE" else { throw WAVReadError.notWAV }
        // The RIFF size field is often wrong in the wild (streamed writes); the chunks are checked instead.
        var offset = 12
        var format: WAVFormat?
        var payload: Range<Int>?
        while format == nil || payload == nil {
            guard offset < bytes.count else { break }
            guard offset + 8 <= bytes.count else { throw WAVReadError.truncated("chunk header at byte \(offset)") }
            let id = fourCC(offset), size = u32(offset + 4)
            let body = offset + 8
            guard size <= bytes.count - body else {
                throw WAVReadError.chunkPastEnd(id: id, size: size, available: bytes.count - body)
            }
            if id == "fmt " && format == nil {
                format = try parseFormat(body..<(body + size))
            } else if id == "data" && payload == nil {
                payload = body..<(body + size)
            }
            offset = body + size + (size & 1)  // chunks are padded to even sizes
        }
        guard let format else { throw WAVReadError.missingChunk("fmt ") }
        guard let payload else { throw WAVReadError.missingChunk("data") }
        let frameBytes = format.bytesPerSample * format.channels
        guard payload.count % frameBytes == 0 else {
            throw WAVReadError.partialFrame(dataBytes: payload.count, frameBytes: frameBytes)
        }
        return (format, try decode(payload, format))
    }

    private func parseFormat(_ chunk: Range<Int>) throws -> WAVFormat {
        guard chunk.count >= 16 else {
            throw WAVReadError.invalidFormat("the fmt chunk is \(chunk.count) bytes, at least 16 are needed")
        }
        let o = chunk.lowerBound
        var tag = u16(o)
        let channels = u16(o + 2), sampleRate = u32(o + 4), blockAlign = u16(o + 12), bits = u16(o + 14)
        guard channels > 0 else { throw WAVReadError.invalidFormat("zero channels") }
        guard sampleRate > 0 else { throw WAVReadError.invalidFormat("zero sample rate") }
        guard bits > 0 else { throw WAVReadError.invalidFormat("zero bits per sample") }
        if tag == 0xFFFE {
            tag = try extensibleSubformat(chunk, containerBits: bits)
        }
        let bytesPerSample = (bits + 7) / 8
        let encoding: WAVFormat.Encoding
        switch (tag, bytesPerSample) {
        case (1, 1...4): encoding = .pcm
        case (3, 4), (3, 8): encoding = .float
        default: throw WAVReadError.unsupportedFormat(tag: tag, bitsPerSample: bits)
        }
        guard blockAlign == channels * bytesPerSample else {
            throw WAVReadError.invalidFormat(
                "block align \(blockAlign) does not match \(channels) channel(s) of \(bytesPerSample) byte(s)")
        }
        return WAVFormat(encoding: encoding, channels: channels, sampleRate: sampleRate, bytesPerSample: bytesPerSample)
    }

    /// The real format tag inside WAVE_FORMAT_EXTENSIBLE: the first two bytes of the subformat GUID,
    /// whose other 14 bytes are the fixed KSDATAFORMAT suffix.
    private func extensibleSubformat(_ chunk: Range<Int>, containerBits: Int) throws -> Int {
        guard chunk.count >= 40, u16(chunk.lowerBound + 16) >= 22 else {
            throw WAVReadError.invalidFormat("WAVE_FORMAT_EXTENSIBLE needs a 40-byte fmt chunk with a 22-byte extension")
        }
        let o = chunk.lowerBound
        let validBits = u16(o + 18)
        guard validBits <= containerBits else {
            throw WAVReadError.invalidFormat("\(validBits) valid bits in a \(containerBits)-bit container")
        }
        let suffix: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        guard Array(bytes[(o + 26)..<(o + 40)]) == suffix else {
            throw WAVReadError.invalidFormat("WAVE_FORMAT_EXTENSIBLE with an unknown subformat GUID")
        }
        return u16(o + 24)
    }

    private func decode(_ payload: Range<Int>, _ format: WAVFormat) throws -> [[Float]] {
        let channels = format.channels, width = format.bytesPerSample
        let frames = payload.count / (width * channels)
        var out = [[Float]](repeating: [], count: channels)
        for c in 0..<channels {
            out[c] = try [Float](unsafeUninitializedCapacity: frames) { buffer, count in
                var o = payload.lowerBound + c * width
                let stride = width * channels
                switch (format.encoding, width) {
                case (.pcm, 1):  // 8-bit WAV is unsigned, centred on 128
                    for f in 0..<frames { buffer[f] = (Float(bytes[o]) - 128) / 128; o += stride }
                case (.pcm, 2):
                    for f in 0..<frames {
                        buffer[f] = Float(Int16(bitPattern: UInt16(u16(o)))) / 32768; o += stride
                    }
                case (.pcm, 3):
                    for f in 0..<frames {
                        let v = Int32(bytes[o]) | Int32(bytes[o + 1]) << 8 | Int32(Int8(bitPattern: bytes[o + 2])) << 16
                        buffer[f] = Float(v) / 8_388_608; o += stride
                    }
                case (.pcm, _):
                    for f in 0..<frames {
                        buffer[f] = Float(Int32(bitPattern: UInt32(u32(o)))) / 2_147_483_648; o += stride
                    }
                case (.float, 4):
                    for f in 0..<frames {
                        let v = Float(bitPattern: UInt32(u32(o)))
                        guard v.isFinite else { count = f; throw WAVReadError.nonFiniteSample(frame: f, channel: c) }
                        buffer[f] = v; o += stride
                    }
                case (.float, _):
                    for f in 0..<frames {
                        let v = Float(Double(bitPattern: UInt64(u32(o)) | UInt64(u32(o + 4)) << 32))
                        // A finite double beyond Float's range becomes infinite here, so check after narrowing.
                        guard v.isFinite else { count = f; throw WAVReadError.nonFiniteSample(frame: f, channel: c) }
                        buffer[f] = v; o += stride
                    }
                }
                count = frames
            }
        }
        return out
    }
}
