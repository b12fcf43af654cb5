import EntrainFiles
import Foundation
import Kessho

/// Kessho preset files (the web app's JSON) by name: read from ./presets/ambient,
/// $XDG_DATA_HOME/entrain/ambient and the installed folders, never from elsewhere; saved into
/// the user's own folder, atomically.
public struct AmbientPresets: Sendable {
    public let files: ConfinedFiles
    public let saveDirectory: URL

    /// Saves go to `saveDirectory`, by default the last of `directories`.
    public init(directories: [URL], saveDirectory: URL? = nil) {
        files = ConfinedFiles(directories: directories, fileExtension: "json", kind: "ambient preset")
        self.saveDirectory = saveDirectory ?? directories.last ?? URL(fileURLWithPath: ".")
    }

    /// ./presets/ambient (relative to the working directory), $XDG_DATA_HOME/entrain/ambient,
    /// then the system's and the installed copies; saves into the user's folder.
    public static func standard(_ data: DataDirectories = DataDirectories()) -> AmbientPresets {
        AmbientPresets(directories: standardDirectories(data), saveDirectory: data.userFolder("ambient"))
    }

    public static func standardDirectories(_ data: DataDirectories = DataDirectories()) -> [URL] {
        data.search("ambient", local: "presets/ambient")
    }

    public func resolve(_ name: String) throws(AmbientError) -> URL {
        do { return try files.resolve(name) } catch { throw AmbientError("\(error)") }
    }

    /// The preset `name`, with the loader's warnings. `reverbQuality` keeps the value given: on
    /// the web it is the listener's preference, which presets never change.
    public func load(_ name: String, keepingReverbQuality quality: String?) throws -> KesshoPresetLoadResult {
        let url = try resolve(name)
        var options = KesshoPresetLoadOptions()
        options.userReverbQuality = quality
        let label = files.label(url)
        do {
            return try KesshoPresetLoader.load(contentsOf: url, label: label, options: options)
        } catch KesshoPresetError.unreadable(let problem) {
            throw AmbientError("\(problem)")
        } catch {
            throw AmbientError("\(label): \(error)")
        }
    }

    /// Write `preset` as NAME.json in the web's format (2-space JSON, state in order).
    @discardableResult
    public func save(_ preset: KesshoPreset, as name: String) throws -> URL {
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        try NamedStore.check(stem)  // refuses separators, "..", dot files
        let url = saveDirectory.appendingPathComponent(stem + ".json")
        try AtomicFile.write(Data(KesshoPresetWriter.data(preset)), to: url, label: "\(saveDirectory.lastPathComponent)/\(stem).json")
        return url
    }
}
