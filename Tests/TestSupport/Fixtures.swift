import Foundation

/// Where test files come from. Our own (Tests/Fixtures, presets/) ship with the repository, so a
/// clone tests every importer and loader with them. Peers' files (SBaGen, Gnaural and Kessho
/// originals) may sit in `../shared/fixtures` beside a checkout: their licences do not let them
/// ship here, so tests that read them skip, saying so, when that folder is absent.
public enum Fixtures {
    /// A folder of our own test files: `Tests/Fixtures/<name>`.
    public static func ours(_ name: String) -> URL {
        EntrainBinary.packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name)
    }

    /// The shipped ambient presets (`presets/ambient`), also test material.
    public static var shippedAmbientPresets: URL { EntrainBinary.packageRoot.appendingPathComponent("presets/ambient") }

    /// `../shared/fixtures/<name>` beside the checkout, or nil when it is not there.
    public static func peers(_ name: String) -> URL? {
        let url = EntrainBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
            .appendingPathComponent(name).standardizedFileURL
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
    }

    /// The reason a peer-fixture test gives when it skips (throw it as an XCTSkip message).
    public static func peersAbsent(_ name: String) -> String {
        "../shared/fixtures/\(name) is not beside this checkout: third-party files whose licences keep them out of "
            + "the repository; the same code is tested with our own files in Tests/Fixtures and presets/"
    }

    /// Files in `folder` (not recursive) ending in `.suffix`, sorted by name.
    public static func files(in folder: URL, suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix("." + suffix) }.sorted().map { folder.appendingPathComponent($0) }
    }
}
