import EntrainDSP
import EntrainFiles
import Foundation
import Glibc

/// Streams interleaved audio to a WAV file, written atomically: samples go to a temporary
/// file beside the target (`.NAME.PID.partial`), which is fsynced and renamed over it only when
/// `finish()` succeeds. An error (a full disk) or an interruption removes the temporary file
/// and leaves the target as it was; ones left by killed renders are swept by the next render
/// into the folder.
///
/// A target that exists and is not a regular file (/dev/null, a FIFO, /dev/stdout) is written
/// to directly, never replaced; give `expectedFrames` so its header is right from the start.
public final class WAVWriter {
    public enum Format: String, CaseIterable, Sendable {
        case float32 = "float"  // IEEE float, written as is
        case pcm24 = "24"       // 24-bit integer, TPDF-dithered
        case pcm16 = "16"       // 16-bit integer, TPDF-dithered
        var bytesPerSample: Int { self == .pcm16 ? 2 : (self == .pcm24 ? 3 : 4) }
        /// For reports: "32-bit float", "24-bit", "16-bit".
        public var label: String { self == .float32 ? "32-bit float" : "\(rawValue)-bit" }
    }

    public let url: URL
    public let format: Format
    public let channels: Int
    public let sampleRate: Int
    /// nil when writing straight into a device or pipe.
    private let temporaryURL: URL?
    private let descriptor: Int32
    private let expectedFrames: Int?
    private var frames = 0
    private var buffer: [UInt8] = []
    private var dither = RandomSource(seed: 0x5450_4446)  // deterministic: same input, same file
    private var stereo16 = StereoDither16(seed: 0x5450_4446)
    private var finished = false

    public init(url: URL, format: Format, channels: Int, sampleRate: Int, expectedFrames: Int? = nil) throws {
        self.url = url
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        self.expectedFrames = expectedFrames
        var info = stat()
        if stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR { throw WAVError.cannotCreate(url.path, reason: "it is a folder") }
            temporaryURL = nil
            descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        } else {
            StaleTemporaries.sweep(url.deletingLastPathComponent(), suffix: "partial")
            let temporary = StaleTemporaries.name(for: url, suffix: "partial")
            temporaryURL = temporary
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno))) }
        // With a known length the header is final now; otherwise finish() rewrites it.
        do {
            try header(dataBytes: (expectedFrames ?? 0) * channels * format.bytesPerSample).withUnsafeBytes { try writeAll($0) }
        } catch {
            abandon()
            throw error
        }
    }

    deinit {
        if !finished { abandon() }
    }

    /// Close and remove the temporary file: the target stays as it was.
    private func abandon() {
        finished = true
        close(descriptor)
        if let temporaryURL { unlink(temporaryURL.path) }
    }

    /// Append frames given as one buffer per channel, all the same length.
    public func write(_ channelBuffers: [UnsafeBufferPointer<Float>]) throws {
        precondition(channelBuffers.count == channels)
        let n = channelBuffers[0].count
        let bytes = n * channels * format.bytesPerSample
        guard (frames + n) * channels * format.bytesPerSample < Int(UInt32.max) - 64 else { throw WAVError.tooLong }
        if buffer.count < bytes { buffer = [UInt8](repeating: 0, count: bytes) }
        let channels = self.channels
        var rng = dither  // a local copy stays in registers; written back below
        defer { dither = rng }
        buffer.withUnsafeMutableBytes { raw in
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
        try buffer.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<bytes])) }
        frames += n
    }

    /// Fix the header, flush to disk and move the file into place.
    public func finish() throws {
        guard let temporaryURL else {  // a device or pipe: nothing to rewrite or rename
            finished = true
            guard close(descriptor) == 0 else { throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno))) }
            return
        }
        do {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno))) }
            try header(dataBytes: frames * channels * format.bytesPerSample).withUnsafeBytes { try writeAll($0) }
            guard fsync(descriptor) == 0 else { throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno))) }
        } catch {
            abandon()
            throw error
        }
        finished = true
        close(descriptor)
        guard rename(temporaryURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryURL.path)
            throw WAVError.cannotCreate(url.path, reason: reason)
        }
    }

    /// write(2) until every byte is out (FileHandle would copy the bytes into Data first).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno)), replacing: temporaryURL != nil)
            }
            offset += written
        }
    }

    /// An integer code for one sample, TPDF-dithered, for full scale `scale` = 2^(bits-1) (readers
    /// divide by it; +1.0 clamps to the largest code). Branch-free: it runs for every sample.
    @inline(__always)
    private static func quantise(_ sample: Float, scale: Double, _ rng: inout RandomSource) -> Int32 {
        // TPDF: two uniform variables of ±0.5 LSB each, from the two halves of one random word.
        let bits = rng.nextUInt32()
        let noise = Double(Int32(bits & 0xFFFF) + Int32(bits >> 16)) * (1.0 / 65536) - 1
        let x = Double(sample == sample ? sample : 0) * scale + noise  // NaN becomes silence
        let clamped = Swift.min(Swift.max(x, -scale), scale - 1)
        // Adding 1.5·2^52 rounds to the nearest integer in the low mantissa bits.
        let magic = 6_755_399_441_055_744.0
        return Int32(truncatingIfNeeded: Int64(bitPattern: (clamped + magic).bitPattern) - Int64(bitPattern: magic.bitPattern))
    }

    private func header(dataBytes: Int) -> Data {
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        let isFloat = format == .float32
        let fmtSize = isFloat ? 18 : 16
        let factSize = isFloat ? 12 : 0
        d.append(contentsOf: Array("RIFF".utf8)); u32(4 + (8 + fmtSize) + factSize + 8 + dataBytes)
        d.append(contentsOf: Array("WAVE".utf8))
        d.append(contentsOf: Array("fmt ".utf8)); u32(fmtSize)
        u16(isFloat ? 3 : 1); u16(channels); u32(sampleRate)
        u32(sampleRate * channels * format.bytesPerSample); u16(channels * format.bytesPerSample)
        u16(format.bytesPerSample * 8)
        if isFloat {
            u16(0)  // cbSize: non-PCM formats carry it, and a fact chunk
            d.append(contentsOf: Array("fact".utf8)); u32(4); u32(dataBytes / (channels * format.bytesPerSample))
        }
        d.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        return d
    }
}

public enum WAVError: Error, CustomStringConvertible {
    /// `replacing`: the samples went to a temporary file, now removed, so the target is as it was.
    case cannotCreate(String, reason: String, replacing: Bool = false)
    case tooLong
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason, let replacing):
            "cannot write \(path): \(reason)" + (replacing ? " (nothing was written there: the file, if any, is as it was)" : "")
        case .tooLong: "WAV files are limited to 4 GiB; render a shorter piece or use fewer channels"
        }
    }
}
