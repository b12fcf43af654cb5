import EntrainEngine
import Foundation

/// Starts AHAP patterns by name on the engine's pattern sources (light and haptic): from
/// ./patterns or $XDG_DATA_HOME/entrain/patterns, never from elsewhere.
public struct PatternPlayer: Sendable {
    public let files: ConfinedFiles

    public init(directories: [URL]) {
        files = ConfinedFiles(directories: directories, fileExtension: "ahap")
    }

    /// Decode, render and start `name` on `host` at `frame` (nil: now). Returns the warnings.
    @discardableResult
    public func play(_ name: String, on host: EngineHost, at frame: Int64? = nil) throws -> [String] {
        let url: URL
        do {
            url = try files.resolve(name)
        } catch .outside(let name) {
            throw PatternPlayerError.outside(name)
        } catch .notFound(let name, let searched) {
            throw PatternPlayerError.notFound(name, searched)
        }
        let (pattern, warnings) = try HapticPattern.load(contentsOf: url)
        try host.playPattern(intensity: pattern.intensity, sharpness: pattern.sharpness, at: frame)
        return warnings
    }
}

public enum PatternPlayerError: Error, CustomStringConvertible {
    case outside(String)
    case notFound(String, [String])
    public var description: String {
        switch self {
        case .outside(let name): "'\(name)' is outside the pattern directories (give a name, not a path)"
        case .notFound(let name, let dirs): "no pattern '\(name)' in \(dirs.joined(separator: " or "))"
        }
    }
}
