import EntrainEngine
import Foundation

/// Renders songs' MIDI files with fluidsynth and keeps the results: in memory for the process,
/// and as WAV files in a cache folder named after the MIDI bytes and the soundfont, so a second
/// test run (or `beat-eval --songs` after the tests) does not render again.
public final class SongRenderer: @unchecked Sendable {
    public static let shared = SongRenderer()

    /// Debian's fluid-soundfont-gm; ENTRAIN_SOUNDFONT overrides it.
    public static var soundfont: String {
        ProcessInfo.processInfo.environment["ENTRAIN_SOUNDFONT"] ?? "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    }
    public static let sampleRate = 48_000

    public static var isAvailable: Bool {
        AubioRunner.path(of: "fluidsynth") != nil && FileManager.default.isReadableFile(atPath: soundfont)
    }

    /// Where rendered songs are kept: ENTRAIN_SONG_CACHE, else a folder under the temporary directory.
    public static var cacheDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["ENTRAIN_SONG_CACHE"] { return URL(fileURLWithPath: path) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("entrain-song-cache")
    }

    private let lock = NSLock()
    private var rendered: [String: CorpusItem] = [:]

    func item(_ spec: SongCorpus.Spec) throws -> CorpusItem {
        lock.lock()
        defer { lock.unlock() }
        if let item = rendered[spec.name] { return item }
        let song = spec.score.rendering(seed: spec.name)
        let wav = try render(song.midi, name: spec.name)
        let file = try WAVFile(contentsOf: wav)
        guard file.sampleRate == Self.sampleRate else { throw SongRenderError.unexpectedRate(wav.path, file.sampleRate) }
        let item = CorpusItem(name: spec.name, category: spec.category, sampleRate: file.sampleRate,
                              samples: BeatAnalysis.mono(file.samples), onsets: song.onsets, beats: song.beats, summary: spec.summary)
        rendered[spec.name] = item
        return item
    }

    /// The WAV of `midi`, rendered now unless the cache has it.
    private func render(_ midi: Data, name: String) throws -> URL {
        guard let fluidsynth = AubioRunner.path(of: "fluidsynth") else { throw SongRenderError.notInstalled("fluidsynth") }
        let font = Self.soundfont
        guard FileManager.default.isReadableFile(atPath: font) else { throw SongRenderError.notInstalled(font) }
        let fontSize = (try? FileManager.default.attributesOfItem(atPath: font)[.size] as? Int) ?? 0
        let key = String(format: "%016llx", Self.fingerprint(midi, extra: "\(fontSize) \(Self.sampleRate)"))
        let directory = Self.cacheDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let wav = directory.appendingPathComponent("\(name)-\(key).wav")
        if FileManager.default.fileExists(atPath: wav.path) { return wav }
        let mid = directory.appendingPathComponent("\(name)-\(key).mid")
        try midi.write(to: mid, options: .atomic)
        // Render beside the final name and move it there at the end: a killed run leaves no half file.
        let partial = directory.appendingPathComponent("\(name)-\(key).\(getpid()).partial.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fluidsynth)
        process.arguments = ["-n", "-i", "-q", "-F", partial.path, "-T", "wav", "-O", "s16", "-r", String(Self.sampleRate),
                             "-g", "0.5", font, mid.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: partial.path) else {
            try? FileManager.default.removeItem(at: partial)
            throw SongRenderError.failed(name, status: process.terminationStatus, stderr: text)
        }
        _ = try? FileManager.default.removeItem(at: wav)
        try FileManager.default.moveItem(at: partial, to: wav)
        return wav
    }

    /// FNV-1a over the bytes and a text: changes whenever the song or the rendering set-up does.
    static func fingerprint(_ data: Data, extra: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data + Data(extra.utf8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}

public enum SongRenderError: Error, CustomStringConvertible {
    case notInstalled(String)
    case failed(String, status: Int32, stderr: String)
    case unexpectedRate(String, Int)

    public var description: String {
        switch self {
        case .notInstalled(let what): "\(what) not found; install fluidsynth and fluid-soundfont-gm (scripts/install-deps.sh)"
        case .failed(let name, let status, let stderr):
            "fluidsynth failed on song '\(name)' (status \(status)): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .unexpectedRate(let path, let rate): "\(path): rendered at \(rate) Hz, expected \(SongRenderer.sampleRate)"
        }
    }
}
