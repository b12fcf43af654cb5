import EntrainFiles
import Foundation

/// A whole WAV file decoded to float samples, one array per channel.
///
/// Reads PCM 8/16/24/32-bit, IEEE float 32/64 and WAVE_FORMAT_EXTENSIBLE with a PCM or float
/// subformat, any channel count. Files may come from anywhere, so every field is checked before
/// it is trusted: a malformed file throws a `WAVReadError` saying what is wrong, never traps
/// and never yields NaN or infinite samples.
public struct WAVFile {
    public let sampleRate: Int
    public let channels: Int
    /// 1 (integer PCM) or 3 (IEEE float); for WAVE_FORMAT_EXTENSIBLE, the subformat's tag.
    public let formatTag: Int
    /// Bits per sample as stored (the container size for WAVE_FORMAT_EXTENSIBLE).
    public let bitsPerSample: Int
    /// One array per channel, integer formats scaled to -1...1 (float files may go beyond it).
    public let samples: [[Float]]

    public var frameCount: Int { samples.first?.count ?? 0 }

    /// Reads a regular file only (a pipe would block the reader; see DocumentFile).
    public init(contentsOf url: URL) throws {
        let handle = FileHandle(fileDescriptor: try DocumentFile.openRegular(url, url.path), closeOnDealloc: true)
        try self.init(data: handle.readDataToEndOfFile())
    }

    public init(data: Data) throws {
        let parsed = try data.withUnsafeBytes { try WAVParser(bytes: $0).parse() }
        sampleRate = parsed.format.sampleRate
        channels = parsed.format.channels
        formatTag = parsed.format.encoding.tag
        bitsPerSample = parsed.format.bytesPerSample * 8
        samples = parsed.samples
    }
}

public enum WAVReadError: Error, Equatable, CustomStringConvertible {
    /// The first 12 bytes are not "RIFF", size, "WAVE".
    case notWAV
    /// The file ends inside a header: `what` names the structure that was cut short.
    case truncated(String)
    /// A chunk claims more bytes than the file holds.
    case chunkPastEnd(id: String, size: Int, available: Int)
    case missingChunk(String)
    /// A field that cannot describe audio (zero channels, zero rate, inconsistent block size…).
    case invalidFormat(String)
    /// A valid description of an encoding this reader does not decode.
    case unsupportedFormat(tag: Int, bitsPerSample: Int)
    /// The data chunk does not hold a whole number of frames.
    case partialFrame(dataBytes: Int, frameBytes: Int)
    /// A float file holding NaN or infinity, which no caller can use as audio.
    case nonFiniteSample(frame: Int, channel: Int)

    public var description: String {
        switch self {
        case .notWAV: "not a WAV file: no RIFF/WAVE header"
        case .truncated(let what): "truncated WAV file: it ends inside the \(what)"
        case .chunkPastEnd(let id, let size, let available):
            "malformed WAV file: the '\(id)' chunk declares \(size) bytes but only \(available) remain"
        case .missingChunk(let id): "malformed WAV file: no '\(id)' chunk"
        case .invalidFormat(let why): "malformed WAV format: \(why)"
        case .unsupportedFormat(let tag, let bits):
            "unsupported WAV encoding: format tag 0x\(String(tag, radix: 16, uppercase: true)) with \(bits) bits per sample "
                + "(supported: PCM 8/16/24/32-bit, float 32/64-bit, also inside WAVE_FORMAT_EXTENSIBLE)"
        case .partialFrame(let bytes, let frame):
            "malformed WAV file: \(bytes) data bytes is not a whole number of \(frame)-byte frames"
        case .nonFiniteSample(let frame, let channel):
            "WAV file holds a NaN or infinite sample (frame \(frame), channel \(channel))"
        }
    }
}
