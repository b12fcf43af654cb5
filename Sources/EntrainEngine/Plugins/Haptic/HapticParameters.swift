import EntrainAddressSpace
import EntrainCore

/// The haptic plugin's parameter table (the `haptic` port: a drive signal for a bass shaker).
public enum HapticParameters {
    public static var sourceEntrainment: Int { 0 }
    public static var sourceBeat: Int { 1 }
    public static var sourceManual: Int { 2 }
    public static var sourcePattern: Int { 3 }
    public static var intensity: Int { 4 }
    public static var sharpness: Int { 5 }
    public static var level: Int { 6 }
    public static var beatDecay: Int { 7 }

    public static let sourceNames = ["entrainment", "beat", "manual", "pattern"]

    /// The carrier follows sharpness across the band tactile transducers reproduce.
    public static var lowestCarrier: Double { 30 }
    public static var highestCarrier: Double { 80 }

    public static let descriptor = PluginDescriptor(id: "haptic", parameters: [
        // Off by default: a transducer touches the body, so nothing drives it until a source is
        // turned on or a pattern played (the pattern source only sounds while one plays).
        ControlDescriptor("/haptic/source/entrainment", .toggle(defaultValue: false),
                      "source: intensity swelling sinusoidally at voice 1's beat rate (steady above half the carrier)"),
        ControlDescriptor("/haptic/source/beat", .toggle(defaultValue: false), "source: a burst on each beat found in beat_in"),
        ControlDescriptor("/haptic/source/manual", .toggle(defaultValue: false), "source: the intensity set by /haptic/intensity"),
        ControlDescriptor("/haptic/source/pattern", .toggle(defaultValue: true), "source: the playing AHAP pattern (/haptic/pattern)"),
        ControlDescriptor("/haptic/intensity", .continuous(range: 0...1, defaultValue: 0.5, curve: .linear), glide: 0.05,
                      "manual intensity"),
        ControlDescriptor("/haptic/sharpness", .continuous(range: 0...1, defaultValue: 0.3, curve: .linear), glide: 0.05,
                      "feel: carrier 30 Hz (0) to 80 Hz (1), sine turning squarer above 0.5; a playing pattern's own sharpness wins"),
        ControlDescriptor("/haptic/level", .continuous(range: 0...1, defaultValue: 0.5, curve: .linear), glide: 0.05,
                      "output level of the haptic drive (under the master ceiling)"),
        ControlDescriptor("/haptic/beat/decay", .continuous(range: 20...1000, defaultValue: 120, curve: .linear), unit: "ms",
                      "beat burst: time for the burst to fall to 1/e"),
    ])
}
