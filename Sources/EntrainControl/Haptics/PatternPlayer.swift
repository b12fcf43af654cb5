import EntrainEngine
import Foundation

/// Starts AHAP patterns by name on the engine's pattern sources (light and haptic): from
/// ./patterns or $XDG_DATA_HOME/entrain/patterns, never from elsewhere.
public struct PatternPlayer: Sendable {
    public let files: ConfinedFiles

    public init(directories: [URL]) {
        files = ConfinedFiles(directories: directories, fileExtension: "ahap", kind: "pattern")
    }

    /// Decode, render and start `name` on `host` at `frame` (nil: now). Returns the warnings.
    @discardableResult
    public func play(_ name: String, on host: EngineHost, at frame: Int64? = nil) throws -> [String] {
        let url = try files.resolve(name)
        let (pattern, warnings) = try HapticPattern.load(contentsOf: url, label: files.label(url))
        try host.playPattern(intensity: pattern.intensity, sharpness: pattern.sharpness, at: frame)
        return warnings
    }
}
