/// The client's JACK ports. Each plugin reads and writes the ones it owns; ports whose plugin
/// has not landed yet stay silent outputs (or unread inputs) so patches made today keep working.
public enum ClientPort: Int, CaseIterable, Sendable {
    case entrainmentL = 0, entrainmentR, ambientL, ambientR, beatIn, led, haptic
    /// Optional: more LED ports (`--led-ports N`, e.g. RGB) and the haptic envelope as CV (`--haptic-cv`).
    case led2, led3, led4, led5, led6, led7, led8, hapticIntensity, hapticSharpness
    /// The mix input: the user's music, shaped by the entrainment and played on entrainment_L/R.
    case mixL, mixR

    /// Every port, optional ones included (a literal: no array on the process thread).
    public static var count: Int { 18 }

    /// Ports registered only when asked for.
    public var isOptional: Bool { rawValue > ClientPort.haptic.rawValue && !isMixInput }

    /// mix_L or mix_R.
    public var isMixInput: Bool { self == .mixL || self == .mixR }

    /// LED port number 1…8 (nil for other ports).
    public var ledNumber: Int? {
        switch self {
        case .led: 1
        case .led2, .led3, .led4, .led5, .led6, .led7, .led8: rawValue - ClientPort.led2.rawValue + 2
        default: nil
        }
    }

    public enum Direction: Sendable { case input, output }
    public enum Signal: Sendable { case audio, controlVoltage }

    public var name: String {
        switch self {
        case .entrainmentL: "entrainment_L"
        case .entrainmentR: "entrainment_R"
        case .ambientL: "ambient_L"
        case .ambientR: "ambient_R"
        case .beatIn: "beat_in"
        case .led: "led"
        case .haptic: "haptic"
        case .hapticIntensity: "haptic_intensity"
        case .hapticSharpness: "haptic_sharpness"
        case .mixL: "mix_L"
        case .mixR: "mix_R"
        default: "led_\(ledNumber ?? 0)"
        }
    }

    public var direction: Direction { self == .beatIn || isMixInput ? .input : .output }
    public var signal: Signal {
        switch self {
        case .entrainmentL, .entrainmentR, .ambientL, .ambientR, .beatIn, .haptic, .mixL, .mixR: .audio
        default: .controlVoltage
        }
    }

    public var prettyName: String {
        switch self {
        case .entrainmentL: "Entrainment Left"
        case .entrainmentR: "Entrainment Right"
        case .ambientL: "Ambient Left"
        case .ambientR: "Ambient Right"
        case .beatIn: "Beat Detector Input"
        case .led: "LED Brightness (CV 0..1)"
        case .haptic: "Haptic Drive"
        case .hapticIntensity: "Haptic Intensity (CV 0..1)"
        case .hapticSharpness: "Haptic Sharpness (CV 0..1)"
        case .mixL: "Mix Input Left"
        case .mixR: "Mix Input Right"
        default: "LED \(ledNumber ?? 0) Brightness (CV 0..1)"
        }
    }

    /// JACK port-group: ports that belong together in a patchbay.
    public var group: String {
        switch self {
        case .entrainmentL, .entrainmentR: "entrainment"
        case .ambientL, .ambientR: "ambient"
        case .beatIn: "beat"
        case .haptic, .hapticIntensity, .hapticSharpness: "haptic"
        case .mixL, .mixR: "mix"
        default: "light"
        }
    }

    public var summary: String {
        switch self {
        case .entrainmentL, .entrainmentR: "audio out: the entrainment signal (binaural, monaural, isochronic, noise)"
        case .ambientL, .ambientR: "audio out: the generative-ambient engine (Kessho pad, granulator, reverb, ocean; silent until played)"
        case .beatIn: "audio in: material for beat detection (onsets, tempo, beats: see /beat/* in osc-schema.md)"
        case .led: "CV out, 0..1 brightness: strobe, beat flashes, manual, pattern (JACK signal-type CV)"
        case .haptic: "audio out: 30-80 Hz drive for a tactile transducer"
        case .hapticIntensity: "CV out, 0..1: the haptic intensity envelope (--haptic-cv)"
        case .hapticSharpness: "CV out, 0..1: the haptic sharpness (--haptic-cv)"
        case .mixL, .mixR: "audio in: music played on the entrainment pair, shaped at the beat (see /mix/* in osc-schema.md)"
        default: "CV out, 0..1: the LED brightness times /led/gain/N (--led-ports N)"
        }
    }
}

/// One period's port buffers, as plain pointers. Built fresh every period by the JACK callback
/// (JACK buffers must not be cached) or by the offline renderer.
public struct PortBuffers {
    public var buffers = InlineArray<18, UnsafeMutablePointer<Float>?>(repeating: nil)
    public init() {}

    @inlinable @inline(__always)
    public subscript(port: ClientPort) -> UnsafeMutablePointer<Float>? {
        get { buffers[port.rawValue] }
        set { buffers[port.rawValue] = newValue }
    }
}
