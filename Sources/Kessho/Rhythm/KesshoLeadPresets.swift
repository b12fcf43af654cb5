import EntrainDSP

/// The lead's FM voices by id (the web's Lead4opFM presets: the ids presets name in
/// `lead1PresetA` and the like). Unknown ids play soft_rhodes, as on the web.
public enum KesshoLeadPresets {
    /// A row of the table: algorithm, beat detune (cents), carrier 2 mix, ratios, indices,
    /// modulator decays (s), mod 1 sustain, A/D/S/R (s), filter Hz/Q, transient
    /// click/noise/ms/decay/Hz/type, gain, x level/pan, y level/pan.
    static func patch(_ algorithm: FMPatch.Algorithm, _ beat: Double, _ c2: Double, ratio: InlineArray<4, Double>,
                      index: InlineArray<4, Double>, decay: InlineArray<4, Double>, sustain1: Double,
                      adsr: (Double, Double, Double, Double), filter: (Double, Double),
                      transient: (Double, Double, Double, Double, Double, FMPatch.NoiseType), gain: Double,
                      xy: (Double, Double, Double, Double)) -> FMPatch {
        var p = FMPatch()
        p.algorithm = algorithm
        p.beatDetune = beat
        p.carrier2Mix = c2
        p.ratio = ratio
        p.index = index
        p.modDecay = decay
        p.mod1Sustain = sustain1
        (p.attack, p.decay, p.sustain, p.release) = adsr
        (p.filterFrequency, p.filterQ) = filter
        (p.click, p.noise, p.transientMilliseconds, p.transientDecay, p.transientFilter, p.transientType) = transient
        p.gain = gain
        (p.xLevel, p.xPan, p.yLevel, p.yPan) = xy
        return p
    }

    public static let all: [String: FMPatch] = [
        "bell": patch(.cross, 8, 0.7, ratio: [2, 3, 4.2, 0.5], index: [2.2, 1, 0.6, 0.3], decay: [0.8, 0.6, 0.45, 1],
                      sustain1: 0.2, adsr: (0.001, 1, 0.4, 7), filter: (6000, 0.8),
                      transient: (0.7, 0.2, 40, 60, 4000, .filtered), gain: 0.6, xy: (0.95, -0.42, 1.1, 0.42)),
        "calliope": patch(.dx17, 0.2, 0.12, ratio: [1, 1, 2, 2], index: [1.25, 1.05, 0.95, 0.8], decay: [0.55, 0.48, 0.44, 0.4],
                          sustain1: 0.45, adsr: (0.003, 0.45, 0.42, 2.4), filter: (7600, 1.1),
                          transient: (0.08, 0.03, 15, 90, 5200, .filtered), gain: 0.66, xy: (1.2, 0, 0, 0)),
        "celesta": patch(.stack, 0.8, 0.25, ratio: [2, 4, 6, 0.5], index: [0.6, 0.3, 0.15, 0.05], decay: [0.25, 0.18, 0.12, 0.35],
                         sustain1: 0.08, adsr: (0.002, 0.2, 0.3, 2.5), filter: (6500, 0.7),
                         transient: (0.45, 0.05, 12, 140, 5500, .filtered), gain: 0.6, xy: (0.92, -0.34, 1.05, 0.34)),
        "gamelan": patch(.cross, 25, 0.65, ratio: [2.4, 4, 5.5, 0.65], index: [2, 0.8, 0.5, 0.3], decay: [0.45, 0.35, 0.2, 0.6],
                         sustain1: 0.08, adsr: (0.002, 0.35, 0.3, 6), filter: (7000, 1),
                         transient: (0.5, 0.15, 25, 80, 5000, .filtered), gain: 0.7, xy: (0.95, -0.35, 1.05, 0.35)),
        "glockenspiel": patch(.stack, 1, 0.2, ratio: [2.76, 5.4, 8.93, 0.5], index: [2.5, 1.2, 0.6, 0.1],
                              decay: [0.15, 0.1, 0.06, 0.2], sustain1: 0.03, adsr: (0.0005, 0.12, 0.15, 3),
                              filter: (10000, 0.8), transient: (0.8, 0.05, 10, 200, 8000, .filtered), gain: 0.65,
                              xy: (0.9, -0.38, 1.1, 0.38)),
        "hand_drum": patch(.stack, 15, 0.6, ratio: [1.59, 2.14, 2.65, 0.8], index: [2, 1.2, 0.8, 0.5], decay: [0.12, 0.08, 0.05, 0.15],
                           sustain1: 0.02, adsr: (0.002, 0.08, 0.1, 0.8), filter: (1800, 1.5),
                           transient: (0.7, 0.6, 40, 60, 1500, .brown), gain: 0.85, xy: (1.1, -0.2, 0.85, 0.2)),
        "handpan": patch(.parallel, 3, 0.7, ratio: [2, 3, 4.03, 0.5], index: [0.6, 0.35, 0.2, 0.15], decay: [0.6, 0.5, 0.35, 0.7],
                         sustain1: 0.2, adsr: (0.01, 0.5, 0.55, 4.5), filter: (3000, 0.7),
                         transient: (0.2, 0.1, 20, 80, 2000, .pink), gain: 0.65, xy: (1, -0.28, 1, 0.28)),
        "kalimba": patch(.split, 8, 0.4, ratio: [2.92, 5.4, 8.9, 0.5], index: [1.5, 0.6, 0.35, 0.2], decay: [0.25, 0.15, 0.08, 0.4],
                         sustain1: 0.05, adsr: (0.001, 0.15, 0.25, 2.2), filter: (6000, 1.2),
                         transient: (0.4, 0.35, 30, 100, 3500, .brown), gain: 0.75, xy: (1, -0.3, 0.9, 0.3)),
        "marimba": patch(.split, 2, 0.35, ratio: [4, 10, 20, 0.5], index: [1, 0.4, 0.15, 0.2], decay: [0.2, 0.12, 0.08, 0.35],
                         sustain1: 0.05, adsr: (0.003, 0.2, 0.2, 1.8), filter: (2800, 1),
                         transient: (0.4, 0.25, 35, 90, 2000, .brown), gain: 0.75, xy: (1.05, -0.25, 0.9, 0.25)),
        "mbira": patch(.cross, 18, 0.55, ratio: [2.94, 5.38, 8.76, 0.5], index: [1.8, 0.7, 0.4, 0.25], decay: [0.35, 0.25, 0.12, 0.5],
                       sustain1: 0.15, adsr: (0.001, 0.2, 0.35, 3), filter: (5500, 1.8),
                       transient: (0.3, 0.5, 80, 20, 2500, .white), gain: 0.72, xy: (0.95, -0.3, 1, 0.3)),
        "rhodes": patch(.parallel, 1.5, 0.3, ratio: [1, 2, 7, 0.5], index: [0.8, 0.25, 0.08, 0.1], decay: [0.5, 0.35, 0.08, 0.6],
                        sustain1: 0.12, adsr: (0.003, 0.4, 0.5, 2), filter: (3500, 0.8),
                        transient: (0.55, 0.08, 15, 150, 4000, .filtered), gain: 0.7, xy: (1, -0.25, 0.9, 0.25)),
        "singing_bowl": patch(.parallel, 2, 0.8, ratio: [2.71, 5.15, 8.43, 0.5], index: [0.3, 0.15, 0.08, 0.05],
                              decay: [1.5, 1.2, 0.8, 1.8], sustain1: 0.3, adsr: (0.05, 2, 0.7, 8), filter: (4500, 0.5),
                              transient: (0.15, 0.08, 30, 50, 3000, .pink), gain: 0.55, xy: (0.95, -0.4, 1.05, 0.4)),
        "soft_rhodes": patch(.parallel, 0, 0, ratio: [1, 2, 3, 0.5], index: [0.25, 0.08, 0, 0], decay: [0.8, 0.72, 0.3, 0.3],
                             sustain1: 0.23, adsr: (0.01, 0.8, 0.3, 2), filter: (4000, 0.7),
                             transient: (0.08, 0.02, 12, 130, 4200, .filtered), gain: 0.34, xy: (1, -0.2, 0.9, 0.2)),
        "tongue_drum": patch(.parallel, 1, 0.25, ratio: [2, 3, 4, 0.5], index: [0.4, 0.15, 0.05, 0.08], decay: [0.7, 0.6, 0.4, 0.8],
                             sustain1: 0.25, adsr: (0.02, 0.6, 0.65, 5), filter: (2500, 0.6),
                             transient: (0.15, 0.08, 25, 60, 1800, .pink), gain: 0.6, xy: (1, -0.22, 0.92, 0.22)),
        "vibraphone": patch(.split, 4, 0.5, ratio: [4, 10, 20, 0.5], index: [0.7, 0.25, 0.1, 0.12], decay: [0.55, 0.4, 0.25, 0.7],
                            sustain1: 0.15, adsr: (0.008, 0.5, 0.45, 5.5), filter: (5000, 0.7),
                            transient: (0.35, 0.1, 25, 70, 3500, .filtered), gain: 0.65, xy: (1, -0.32, 0.95, 0.32)),
        "xylophone": patch(.stack, 0.5, 0.15, ratio: [3, 6, 9, 0.5], index: [1.8, 0.9, 0.5, 0.15], decay: [0.12, 0.08, 0.05, 0.2],
                           sustain1: 0.02, adsr: (0.001, 0.1, 0.1, 1.2), filter: (8000, 1.2),
                           transient: (0.6, 0.2, 15, 120, 5000, .white), gain: 0.7, xy: (1.05, -0.28, 0.95, 0.28)),
    ]

    public static func patch(id: String) -> FMPatch { all[id] ?? all["soft_rhodes"]! }

    /// A Lead4opFM preset file's voice (`{algorithm, xy, params: {…}}`); missing fields take the
    /// web's defaults (mod 1 sustain 0.1; transient click 0, noise 0, 20 ms, decay 50, 4000 Hz, white).
    public static func patch(json root: KesshoJSONValue) throws -> FMPatch {
        func number(_ v: KesshoJSONValue?, _ fallback: Double) -> Double {
            if case .number(let x)? = v, x.isFinite { return x }
            return fallback
        }
        guard case .string(let name)? = root["algorithm"], let algorithm = FMPatch.Algorithm(name: name) else {
            throw KesshoLeadPresetError(message: "no known \"algorithm\" (parallel, stack, split, cross or dx17)")
        }
        guard let params = root["params"] else { throw KesshoLeadPresetError(message: "no \"params\" object") }
        var p = FMPatch()
        p.algorithm = algorithm
        p.beatDetune = number(params["beatDetune"], 0)
        p.carrier2Mix = number(params["carrier2Mix"], 0)
        for k in 0..<4 {
            let m = params["mod\(k + 1)"]
            p.ratio[k] = number(m?["ratio"], 1)
            p.index[k] = number(m?["index"], 0)
            p.modDecay[k] = number(m?["decay"], 0.5)
        }
        p.mod1Sustain = number(params["mod1"]?["sustain"], 0.1)
        let env = params["envelope"]
        p.attack = number(env?["attack"], 0.01); p.decay = number(env?["decay"], 0.8)
        p.sustain = number(env?["sustain"], 0.3); p.release = number(env?["release"], 2)
        p.filterFrequency = number(params["filter"]?["freq"], 4000); p.filterQ = number(params["filter"]?["q"], 0.7)
        let t = params["transient"]
        p.click = number(t?["click"], 0); p.noise = number(t?["noise"], 0)
        p.transientMilliseconds = number(t?["duration"], 20); p.transientDecay = number(t?["decay"], 50)
        p.transientFilter = number(t?["filter"], 4000)
        if case .string(let type)? = t?["type"] { p.transientType = FMPatch.NoiseType(name: type) }
        p.gain = number(params["gain"], 0.5)
        let xy = root["xy"]
        p.xLevel = number(xy?["xLevel"], 1); p.xPan = number(xy?["xPan"], 0)
        p.yLevel = number(xy?["yLevel"], 1); p.yPan = number(xy?["yPan"], 0)
        return p
    }
}

public struct KesshoLeadPresetError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
