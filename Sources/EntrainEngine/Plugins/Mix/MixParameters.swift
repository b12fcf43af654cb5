import EntrainAddressSpace
import EntrainCore

/// The mix input's parameter table: the music on mix_L/R, its level on the entrainment pair,
/// and SBaGenX's four mix effects (mixam, mixpulse, mixspin, mixbeat), each off at depth 0.
public enum MixParameters {
    public enum Field: Int, CaseIterable {
        case level = 0
        case amDepth, amRate, amShape
        case pulseDepth, pulseRate, pulseDuty, pulseEdge
        case spinWidth, spinRate
        case beatDepth, beatRate
    }

    public enum AMShape: Int, CaseIterable { case cosine = 0, triangle, pulse }

    /// Fields in the table (Field.allCases.count, without building an array).
    static var count: Int { 12 }

    public static let specs: [ControlDescriptor] = [
        ControlDescriptor("/mix/level", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "mix input (mix_L/R, or render --mix) on the entrainment pair: 1 = as it comes in, 0 = not heard"),
        ControlDescriptor("/mix/am/depth", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "mixam: how deep the music's level dips at the rate (0 = off, 1 = to silence)"),
        ControlDescriptor("/mix/am/rate", .continuous(range: 0.1...100, defaultValue: 10, curve: .linear), unit: "Hz", glide: 0.05,
                      "mixam: amplitude-modulation rate (the beat)"),
        ControlDescriptor("/mix/am/shape", .choice(options: ["cosine", "triangle", "pulse"], defaultIndex: 0), glide: 0.05,
                      "mixam: envelope shape (raised cosine, triangle, or a half-period pulse with soft edges)"),
        ControlDescriptor("/mix/pulse/depth", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "mixpulse: how far the music is gated between pulses (0 = off, 1 = silent between them)"),
        ControlDescriptor("/mix/pulse/rate", .continuous(range: 0.5...100, defaultValue: 10, curve: .linear), unit: "Hz", glide: 0.05,
                      "mixpulse: pulse rate"),
        ControlDescriptor("/mix/pulse/duty", .continuous(range: 0.05...0.95, defaultValue: 0.5, curve: .linear), glide: 0.05,
                      "mixpulse: on-time as a fraction of the period (the isochronic voice's gate)"),
        ControlDescriptor("/mix/pulse/edge", .continuous(range: 0.01...0.5, defaultValue: 0.08, curve: .linear), glide: 0.05,
                      "mixpulse: rise/fall time as a fraction of the period (raised cosine)"),
        ControlDescriptor("/mix/spin/width", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "mixspin: how far the music pans from the centre (0 = off, 1 = fully to each side)"),
        ControlDescriptor("/mix/spin/rate", .continuous(range: -100...100, defaultValue: 1, curve: .linear), unit: "Hz", glide: 0.05,
                      "mixspin: turns per second (the sign picks the direction)"),
        ControlDescriptor("/mix/beat/depth", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "mixbeat: share of the frequency-shifted music in each ear (0 = off, 1 = shifted only)"),
        ControlDescriptor("/mix/beat/rate", .continuous(range: -100...100, defaultValue: 6, curve: .linear), unit: "Hz", glide: 0.05,
                      "mixbeat: the binaural beat made of the music: left shifted down by rate/2, right up by rate/2"),
    ]
}
