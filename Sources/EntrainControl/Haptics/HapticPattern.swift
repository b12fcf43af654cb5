import Foundation

/// A haptic pattern ready for the real-time engine: intensity and sharpness for every 1 ms tick,
/// rendered ahead of time from an .ahap file so playback is only an array read.
public struct HapticPattern: Sendable, Equatable {
    public static let controlRate = 1000.0  // values per second
    /// The file's name without its extension.
    public let name: String
    /// 0…1, one per tick, from t = 0 to the end of the last event or curve.
    public let intensity: [Float]
    /// 0…1, one per tick (0.5 where no event plays).
    public let sharpness: [Float]
    public var duration: Double { Double(intensity.count) / Self.controlRate }

    public init(name: String, intensity: [Float], sharpness: [Float]) {
        precondition(intensity.count == sharpness.count, "one sharpness per intensity tick")
        self.name = name
        self.intensity = intensity
        self.sharpness = sharpness
    }

    /// Reads and renders an .ahap file. Throws `AHAPLoadError` listing every problem; the
    /// warnings (clamped values, ignored keys and audio events) come back as
    /// `file:line:column: warning: …` lines.
    /// `label` names the file in messages (default: its path).
    public static func load(contentsOf url: URL, label: String? = nil) throws -> (HapticPattern, warnings: [String]) {
        let (pattern, warnings) = try AHAPDecoder.load(contentsOf: url, label: label)
        return (rendered(pattern, file: label ?? url.path), warnings.map(\.description))
    }

    /// As `load`, from text; `file` names the source in messages and gives the pattern its name.
    public static func decode(_ text: String, file: String) throws -> (HapticPattern, warnings: [String]) {
        let (pattern, warnings) = try AHAPDecoder.decode(text, file: file)
        return (rendered(pattern, file: file), warnings.map(\.description))
    }

    static func rendered(_ pattern: AHAPPattern, file: String) -> HapticPattern {
        let (intensity, sharpness) = AHAPRenderer.render(pattern)
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return HapticPattern(name: name, intensity: intensity, sharpness: sharpness)
    }
}
