import Foundation

/// The file types a render writes, picked by the output's extension (anything else, a device
/// or a pipe included, is WAV). FLAC holds the same dithered integer codes as a WAV of the same
/// sample format; Ogg Vorbis and Opus are lossy codecs fed the float samples (no dither).
public enum AudioContainer: String, CaseIterable, Sendable {
    case wav, flac, vorbis, opus

    public init(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "flac": self = .flac
        case "ogg", "oga": self = .vorbis
        case "opus": self = .opus
        default: self = .wav
        }
    }

    public var fileExtension: String {
        switch self {
        case .wav: "wav"
        case .flac: "flac"
        case .vorbis: "ogg"
        case .opus: "opus"
        }
    }

    /// For reports: "FLAC", "Ogg Vorbis", …
    public var label: String {
        switch self {
        case .wav: "WAV"
        case .flac: "FLAC"
        case .vorbis: "Ogg Vorbis"
        case .opus: "Ogg Opus"
        }
    }

    /// Whether the sample format (`--format`) means anything here: Vorbis and Opus code floats.
    public var takesSampleFormat: Bool { self == .wav || self == .flac }

    /// The sample format a render uses when none is given: float for WAV, 24-bit for FLAC
    /// (which holds integers only).
    public var defaultFormat: WAVWriter.Format { self == .flac ? .pcm24 : .float32 }

    /// Why `format` at `sampleRate` cannot be written, in words; nil when it can.
    public func problem(format: WAVWriter.Format, sampleRate: Int) -> String? {
        if self == .flac && format == .float32 { return "FLAC holds integers: use --format 24 or 16" }
        if self == .opus && ![8000, 12000, 16000, 24000, 48000].contains(sampleRate) {
            return "Opus plays at 8, 12, 16, 24 or 48 kHz only (not \(sampleRate) Hz): use --rate 48000 or another container"
        }
        return nil
    }

    /// A writer for `url`, written atomically as every render file is.
    public func writer(url: URL, format: WAVWriter.Format, channels: Int, sampleRate: Int,
                       expectedFrames: Int? = nil) throws -> any AudioFileWriter {
        if self == .wav {
            return try WAVWriter(url: url, format: format, channels: channels, sampleRate: sampleRate, expectedFrames: expectedFrames)
        }
        return try SoundFileWriter(url: url, container: self, format: format, channels: channels, sampleRate: sampleRate)
    }
}

/// What a render writes its frames through (WAV ourselves, the rest through libsndfile).
public protocol AudioFileWriter: AnyObject {
    /// Append frames given as one buffer per channel, all the same length.
    func write(_ channelBuffers: [UnsafeBufferPointer<Float>]) throws
    /// Flush and move the file into place.
    func finish() throws
}

extension WAVWriter: AudioFileWriter {}
