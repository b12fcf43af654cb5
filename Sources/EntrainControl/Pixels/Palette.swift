/// A colour, 0…1 a channel (white: an RGBW pixel's own white channel).
public struct PixelColor: Sendable, Equatable {
    public var r: Float, g: Float, b: Float, w: Float
    public init(_ r: Float, _ g: Float, _ b: Float, _ w: Float = 0) {
        self.r = r; self.g = g; self.b = b; self.w = w
    }
    public static let black = PixelColor(0, 0, 0)

    /// Channel 0 r, 1 g, 2 b, 3 w.
    public subscript(channel: Int) -> Float {
        switch channel {
        case 0: r
        case 1: g
        case 2: b
        default: w
        }
    }

    public func scaled(_ k: Float) -> PixelColor { PixelColor(r * k, g * k, b * k, w * k) }
    public func mixed(with other: PixelColor, _ t: Float) -> PixelColor {
        PixelColor(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t, w + (other.w - w) * t)
    }
    public static func brighter(_ a: PixelColor, _ b: PixelColor) -> PixelColor {
        PixelColor(max(a.r, b.r), max(a.g, b.g), max(a.b, b.b), max(a.w, b.w))
    }
}

/// Gradient palettes: colours at even steps, read anywhere between them (0…1, wrapping).
public enum Palette {
    public static let names = ["warm", "ocean", "forest", "fire", "rainbow", "ice", "white"]
    private static let stops: [[PixelColor]] = [
        [PixelColor(1, 0.35, 0.05), PixelColor(1, 0.6, 0.2), PixelColor(0.9, 0.2, 0.3)],   // warm
        [PixelColor(0, 0.2, 0.8), PixelColor(0, 0.7, 0.9), PixelColor(0.2, 0.9, 0.6)],     // ocean
        [PixelColor(0.1, 0.6, 0.1), PixelColor(0.5, 0.8, 0.1), PixelColor(0.1, 0.4, 0.3)], // forest
        [PixelColor(1, 0, 0), PixelColor(1, 0.4, 0), PixelColor(1, 0.85, 0.2)],             // fire
        [PixelColor(1, 0, 0), PixelColor(1, 1, 0), PixelColor(0, 1, 0), PixelColor(0, 1, 1), PixelColor(0, 0, 1), PixelColor(1, 0, 1)],
        [PixelColor(0.6, 0.8, 1), PixelColor(1, 1, 1), PixelColor(0.4, 0.6, 1)],           // ice
        [PixelColor(1, 1, 1)],                                                              // white
    ]

    /// The colour of palette `index` at `position` (0…1; the gradient wraps round).
    public static func color(_ index: Int, at position: Float) -> PixelColor {
        let colors = stops[max(0, min(stops.count - 1, index))]
        guard colors.count > 1 else { return colors[0] }
        var p = position - position.rounded(.down)
        if !p.isFinite { p = 0 }
        let x = p * Float(colors.count)
        let i = min(colors.count - 1, Int(x))
        return colors[i].mixed(with: colors[(i + 1) % colors.count], x - Float(i))
    }
}
