/// The carrier waveforms. Raw values are stable: they travel in commands and presets.
public enum Waveform: Int, CaseIterable, Sendable {
    case sine = 0, square, triangle, saw

    public var name: String {
        switch self {
        case .sine: "sine"
        case .square: "square"
        case .triangle: "triangle"
        case .saw: "saw"
        }
    }

    /// Fourier amplitude of harmonic k (sine series), before normalisation.
    func harmonicAmplitude(_ k: Int) -> Double {
        switch self {
        case .sine: return k == 1 ? 1 : 0
        case .square: return k % 2 == 1 ? 1 / Double(k) : 0
        case .triangle:
            guard k % 2 == 1 else { return 0 }
            let sign: Double = (k / 2) % 2 == 0 ? 1 : -1
            return sign / Double(k * k)
        case .saw: return (k % 2 == 1 ? 1 : -1) / Double(k)
        }
    }
}
