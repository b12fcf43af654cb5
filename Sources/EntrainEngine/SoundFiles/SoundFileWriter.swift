import CSndFile
import Foundation
import Glibc

/// FLAC, Ogg Vorbis and Opus through libsndfile, into an `AtomicTarget`. Integer formats get the
/// very codes `PCMEncoder` gives a WAV (the same TPDF dither), so a FLAC decodes to the WAV's
/// samples bit for bit; the lossy codecs are handed the float samples.
public final class SoundFileWriter: AudioFileWriter {
    let container: AudioContainer
    let format: WAVWriter.Format
    let channels: Int
    private let target: AtomicTarget
    private let file: OpaquePointer
    private var encoder: PCMEncoder
    private var wide: [Int32] = []
    private var interleaved: [Float] = []
    private var closed = false

    init(url: URL, container: AudioContainer, format: WAVWriter.Format, channels: Int, sampleRate: Int) throws {
        precondition(container != .wav)
        self.container = container
        self.channels = channels
        self.format = container.takesSampleFormat ? format : .float32
        if let problem = container.problem(format: format, sampleRate: sampleRate) { throw WAVError.cannotCreate(url.path, reason: problem) }
        encoder = PCMEncoder(format: self.format, channels: channels)
        target = try AtomicTarget(url: url)
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Self.code(container, self.format)
        guard sf_format_check(&info) != 0 else {
            target.abandon()
            throw WAVError.cannotCreate(url.path, reason: "this libsndfile cannot write \(container.label) (\(format.label), \(sampleRate) Hz)")
        }
        guard let file = sf_open_fd(target.descriptor, Int32(SFM_WRITE), &info, 0) else {
            let reason = String(cString: sf_strerror(nil))
            target.abandon()
            throw WAVError.cannotCreate(url.path, reason: reason)
        }
        self.file = file
    }

    deinit {
        if !closed { sf_close(file) }
        target.abandon()  // does nothing once committed
    }

    static func code(_ container: AudioContainer, _ format: WAVWriter.Format) -> Int32 {
        switch container {
        case .flac: Int32(SF_FORMAT_FLAC) | Int32(format == .pcm16 ? SF_FORMAT_PCM_16 : SF_FORMAT_PCM_24)
        case .vorbis: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        case .opus: Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_OPUS)
        case .wav: Int32(SF_FORMAT_WAV) | Int32(SF_FORMAT_FLOAT)
        }
    }

    public func write(_ channelBuffers: [UnsafeBufferPointer<Float>]) throws {
        let n = channelBuffers[0].count
        guard n > 0 else { return }
        let written: sf_count_t
        switch format {
        case .float32:
            if interleaved.count < n * channels { interleaved = [Float](repeating: 0, count: n * channels) }
            for c in 0..<channels { for i in 0..<n { interleaved[i * channels + c] = channelBuffers[c][i] } }
            written = interleaved.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(n)) }
        case .pcm16:
            _ = encoder.encode(channelBuffers)  // little-endian Int16 codes, as this machine stores them
            written = encoder.bytes.withUnsafeBytes { sf_writef_short(file, $0.baseAddress!.assumingMemoryBound(to: Int16.self), sf_count_t(n)) }
        case .pcm24:
            let count = encoder.encode(channelBuffers) / 3
            if wide.count < count { wide = [Int32](repeating: 0, count: count) }
            encoder.bytes.withUnsafeBytes { raw in
                for k in 0..<count {  // 24-bit code in the top three bytes: libsndfile's int scale
                    wide[k] = Int32(bitPattern: UInt32(raw[3 * k]) << 8 | UInt32(raw[3 * k + 1]) << 16 | UInt32(raw[3 * k + 2]) << 24)
                }
            }
            written = wide.withUnsafeBufferPointer { sf_writef_int(file, $0.baseAddress, sf_count_t(n)) }
        }
        guard written == n else { throw target.failure(String(cString: sf_strerror(file))) }
    }

    public func finish() throws {
        closed = true
        guard sf_close(file) == 0 else { throw target.failure("libsndfile could not finish the file") }
        try target.commit()
    }
}
