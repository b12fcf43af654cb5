import CSndFile
import Foundation

/// Reads a sound file (WAV, FLAC, Ogg Vorbis, Opus, AIFF, … whatever libsndfile reads) block by
/// block as two float channels: mono plays in both ears, past the end is silence. What `render
/// --mix` feeds the mix input from.
public final class SoundFileReader {
    public let url: URL
    public let sampleRate: Int
    public let channels: Int
    /// Frames in the file.
    public let frames: Int
    private let file: OpaquePointer
    private var interleaved: [Float] = []
    private(set) var position = 0

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public init(url: URL) throws {
        self.url = url
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw Problem(description: "\(url.path): no such file")
        }
        guard !isFolder.boolValue else { throw Problem(description: "\(url.path): is a folder, not a sound file") }
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw Problem(description: "\(url.path): not a sound file libsndfile reads (WAV, FLAC, Ogg Vorbis, Opus, AIFF): \(String(cString: sf_strerror(nil)))")
        }
        guard (1...2).contains(info.channels) else {
            sf_close(file)
            throw Problem(description: "\(url.path): \(info.channels) channels; the mix input takes mono or stereo files")
        }
        guard info.samplerate > 0, info.frames >= 0 else {
            sf_close(file)
            throw Problem(description: "\(url.path): no sample rate or length in its header")
        }
        self.file = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = Int(info.frames)
    }

    deinit { sf_close(file) }

    /// The next `n` frames into `left` and `right` (silence past the end).
    public func read(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames n: Int) {
        if interleaved.count < n * channels { interleaved = [Float](repeating: 0, count: n * channels) }
        let got = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(n)) })
        let read = max(0, got)
        for i in 0..<read {
            left[i] = interleaved[i * channels]
            right[i] = interleaved[i * channels + channels - 1]
        }
        for i in read..<n {
            left[i] = 0
            right[i] = 0
        }
        position += read
    }
}
