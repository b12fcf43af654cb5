import EntrainDSP
import EntrainFiles
import Foundation
import Glibc

/// Streams interleaved audio to a WAV file, written atomically (see `AtomicTarget`): the
/// target changes only when `finish()` succeeds. A device or pipe is written to directly;
/// give `expectedFrames` so its header is right from the start.
public final class WAVWriter {
    public enum Format: String, CaseIterable, Sendable {
        case float32 = "float"  // IEEE float, written as is
        case pcm24 = "24"       // 24-bit integer, TPDF-dithered
        case pcm16 = "16"       // 16-bit integer, TPDF-dithered
        var bytesPerSample: Int { self == .pcm16 ? 2 : (self == .pcm24 ? 3 : 4) }
        /// For reports: "32-bit float", "24-bit", "16-bit".
        public var label: String { self == .float32 ? "32-bit float" : "\(rawValue)-bit" }
    }

    public var url: URL { target.url }
    public let format: Format
    public let channels: Int
    public let sampleRate: Int
    private let target: AtomicTarget
    private let expectedFrames: Int?
    private var frames = 0
    private var encoder: PCMEncoder

    public init(url: URL, format: Format, channels: Int, sampleRate: Int, expectedFrames: Int? = nil) throws {
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        self.expectedFrames = expectedFrames
        encoder = PCMEncoder(format: format, channels: channels)
        target = try AtomicTarget(url: url)
        // With a known length the header is final now; otherwise finish() rewrites it.
        do {
            try header(dataBytes: (expectedFrames ?? 0) * channels * format.bytesPerSample).withUnsafeBytes { try writeAll($0) }
        } catch {
            target.abandon()
            throw error
        }
    }

    /// Append frames given as one buffer per channel, all the same length.
    public func write(_ channelBuffers: [UnsafeBufferPointer<Float>]) throws {
        let n = channelBuffers[0].count
        guard (frames + n) * channels * format.bytesPerSample < Int(UInt32.max) - 64 else { throw WAVError.tooLong }
        let count = encoder.encode(channelBuffers)
        try encoder.bytes.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        frames += n
    }

    /// Fix the header, flush to disk and move the file into place.
    public func finish() throws {
        try target.commit {
            guard target.temporaryURL != nil else { return }  // a device or pipe: the header stands
            guard lseek(target.descriptor, 0, SEEK_SET) == 0 else { throw target.failure() }
            try header(dataBytes: frames * channels * format.bytesPerSample).withUnsafeBytes { try writeAll($0) }
        }
    }

    /// write(2) until every byte is out (FileHandle would copy the bytes into Data first).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(target.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw target.failure()
            }
            offset += written
        }
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
