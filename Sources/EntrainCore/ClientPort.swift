/// The client's JACK ports. Each plugin reads and writes the ones it owns; ports whose plugin
/// has not landed yet stay silent outputs (or unread inputs) so patches made today keep working.
public enum ClientPort: Int, CaseIterable, Sendable {
    case entrainmentL = 0, entrainmentR, ambientL, ambientR, beatIn, led, haptic

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
        }
    }

    public var direction: Direction { self == .beatIn ? .input : .output }
    public var signal: Signal { self == .led ? .controlVoltage : .audio }

    public var prettyName: String {
        switch self {
        case .entrainmentL: "Entrainment Left"
        case .entrainmentR: "Entrainment Right"
        case .ambientL: "Ambient Left"
        case .ambientR: "Ambient Right"
        case .beatIn: "Beat Detector Input"
        case .led: "LED Brightness (CV 0..1)"
        case .haptic: "Haptic Drive"
        }
    }

    /// JACK port-group: ports that belong together in a patchbay.
    public var group: String {
        switch self {
        case .entrainmentL, .entrainmentR: "entrainment"
        case .ambientL, .ambientR: "ambient"
        case .beatIn: "beat"
        case .led: "light"
        case .haptic: "haptic"
        }
    }

    public var summary: String {
        switch self {
        case .entrainmentL, .entrainmentR: "audio out: the entrainment signal (binaural, monaural, isochronic, noise)"
        case .ambientL, .ambientR: "audio out: the generative-ambient engine (silent until that engine lands)"
        case .beatIn: "audio in: material for beat detection (onsets, tempo, beats: see /beat/* in osc-schema.md)"
        case .led: "CV out, 0..1 brightness (JACK signal-type CV; 0 until the light plugin lands)"
        case .haptic: "audio out: drive for a tactile transducer (silent until the haptic plugin lands)"
        }
    }
}

/// One period's port buffers, as plain pointers. Built fresh every period by the JACK callback
/// (JACK buffers must not be cached) or by the offline renderer.
public struct PortBuffers {
    public var buffers = InlineArray<7, UnsafeMutablePointer<Float>?>(repeating: nil)
    public init() {}

    @inlinable @inline(__always)
    public subscript(port: ClientPort) -> UnsafeMutablePointer<Float>? {
        get { buffers[port.rawValue] }
        set { buffers[port.rawValue] = newValue }
    }
}
