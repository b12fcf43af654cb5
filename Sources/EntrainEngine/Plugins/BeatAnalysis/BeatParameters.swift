import EntrainAddressSpace
import EntrainCore

/// The beat-analysis plugin's parameter table: detection method, thresholds and tempo range.
/// Changes apply from the next analysis hop (a few milliseconds); nothing here glides.
public enum BeatParameters {
    public enum Method: Int, CaseIterable { case flux = 0, energy }

    public static var active: Int { 0 }
    public static var method: Int { 1 }
    public static var silence: Int { 2 }
    public static var fluxThreshold: Int { 3 }
    public static var fluxLowEmphasis: Int { 4 }
    public static var fluxMinInterval: Int { 5 }
    public static var energyThreshold: Int { 6 }
    public static var energyRefractory: Int { 7 }
    public static var tempoMin: Int { 8 }
    public static var tempoMax: Int { 9 }
    public static var minConfidence: Int { 10 }
    public static var tempoPrefer: Int { 11 }

    public static let descriptor = PluginDescriptor(id: "beat", parameters: [
        ControlDescriptor("/beat/active", .toggle(defaultValue: true), "analyse beat_in (off: no onsets, beats or tempo)"),
        ControlDescriptor("/beat/method", .choice(options: ["flux", "energy"], defaultIndex: 0),
                      "onset detection: flux = spectral flux with an adaptive median threshold; energy = RMS against its 1 s average"),
        ControlDescriptor("/beat/silence", .continuous(range: -90 ... -20, defaultValue: -60, curve: .linear),
                      unit: "dBFS", "silence gate: no onsets or beats while the input is quieter (RMS per hop)"),
        ControlDescriptor("/beat/flux/threshold", .continuous(range: 1...10, defaultValue: 3, curve: .linear),
                      "flux: onset when the flux exceeds this multiple of its median over the last 250 ms"),
        ControlDescriptor("/beat/flux/low-emphasis", .continuous(range: 0...24, defaultValue: 0, curve: .linear),
                      unit: "dB", "flux: extra weight of the band below 150 Hz (kick drums, bass)"),
        ControlDescriptor("/beat/flux/min-interval", .continuous(range: 10...500, defaultValue: 30, curve: .linear),
                      unit: "ms", "flux: shortest time between two onsets"),
        ControlDescriptor("/beat/energy/threshold", .continuous(range: 1.05...5, defaultValue: 1.4, curve: .linear),
                      "energy: onset when the hop's RMS exceeds this multiple of the RMS of the last second"),
        ControlDescriptor("/beat/energy/refractory", .continuous(range: 20...1000, defaultValue: 150, curve: .linear),
                      unit: "ms", "energy: no further onset for this long after one (the MindSync hysteresis)"),
        ControlDescriptor("/beat/tempo/min", .continuous(range: 40...200, defaultValue: 60, curve: .linear),
                      unit: "BPM", "slowest tempo the tracker considers"),
        ControlDescriptor("/beat/tempo/max", .continuous(range: 60...300, defaultValue: 200, curve: .linear),
                      unit: "BPM", "fastest tempo the tracker considers"),
        ControlDescriptor("/beat/confidence/min", .continuous(range: 0...1, defaultValue: 0.6, curve: .linear),
                      "the tracker starts publishing beats once its grid stands out of the onsets this clearly (0.6: its beats' peaks 3.75 times the mean between them) and at least two of its last four beats were heard, then keeps them going through breaks; each beat carries that contrast times the share of the last four beats an onset came near"),
        ControlDescriptor("/beat/tempo/prefer", .continuous(range: 40...240, defaultValue: 100, curve: .linear),
                      unit: "BPM", "tempo hint: of tempi an octave apart that fit the music about equally, the one nearer this wins"),
    ], constraints: { values in
        let low = values[tempoMin], high = values[tempoMax]
        guard high >= low * 1.25 else {
            return .init(address: "/beat/tempo/max",
                         reason: "the tempo range must span at least a factor 1.25 (min \(low), max \(high) BPM)")
        }
        return nil
    })
}
