import EntrainControl
import Foundation
import Kessho

/// One reader of the user's files as the fuzzers drive it: bytes in, a value or an error out.
/// A crash or a stall here is a bug; an error is the right answer to a bad file.
public struct FileReader {
    public let name: String
    public let fileExtension: String
    /// Where real inputs to start from live: (folder in the repository, file extension).
    public let seedFolders: [(folder: String, fileExtension: String)]
    public let read: ([UInt8]) throws -> Void
}

/// Every file reader, by name: the one list the mutation test and the libFuzzer target share.
public enum FileReaders {
    /// The playlist reader reads from a data folder, so its inputs are written into this one.
    public static let playlistFolder = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-fuzz-\(getpid())")

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    public static var all: [FileReader] {
        [
            FileReader(name: "session", fileExtension: "json", seedFolders: [("sessions", "json")]) {
                _ = try SessionDecoder.decode(text($0), file: "fuzz.json")
            },
            FileReader(name: "preset", fileExtension: "json", seedFolders: [("Tests/Fixtures/fuzz", "preset")]) {
                _ = try Presets.changes(text($0), file: "fuzz.json")
            },
            FileReader(name: "playlist", fileExtension: "json", seedFolders: [("Tests/Fixtures/fuzz", "playlist")]) { bytes in
                let folder = playlistFolder.appendingPathComponent("playlists")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(bytes).write(to: folder.appendingPathComponent("fuzz.json"))
                _ = try Playlists(dataDirectory: playlistFolder).items("fuzz")
            },
            FileReader(name: "kessho", fileExtension: "json", seedFolders: [("presets/ambient", "json"), ("Tests/Fixtures/kessho", "json")]) {
                _ = try KesshoPresetLoader.load($0, fileName: "fuzz.json")
            },
            FileReader(name: "sbg", fileExtension: "sbg", seedFolders: [("Tests/Fixtures/sbg", "sbg")]) {
                _ = try SBGParser.parse(text($0), file: "fuzz.sbg")
            },
            FileReader(name: "gnaural", fileExtension: "gnaural", seedFolders: [("Tests/Fixtures/gnaural", "gnaural")]) {
                _ = try GnauralImporter.convert(Data($0), file: "fuzz.gnaural")
            },
            FileReader(name: "ahap", fileExtension: "ahap", seedFolders: [("patterns", "ahap")]) {
                _ = try AHAPDecoder.decode(text($0), file: "fuzz.ahap")
            },
        ]
    }

    /// The seed files of `reader` under the repository at `root`, sorted.
    public static func seeds(of reader: FileReader, root: URL) -> [String] {
        reader.seedFolders.flatMap { folder, fileExtension -> [String] in
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix("." + fileExtension) }.sorted().map { url.appendingPathComponent($0).path }
        }
    }
}
