import EntrainAddressSpace
import EntrainCore

/// The light plugin's parameter table (the `led` CV port).
public enum LightParameters {
    public static var arm: Int { 0 }
    public static var sourceEntrainment: Int { 1 }
    public static var sourceBeat: Int { 2 }
    public static var sourceManual: Int { 3 }
    public static var sourcePattern: Int { 4 }
    public static var level: Int { 5 }
    public static var duty: Int { 6 }
    public static var edge: Int { 7 }
    public static var shape: Int { 8 }
    public static var beatDecay: Int { 9 }
    public static var manual: Int { 10 }
    public static var offset: Int { 11 }
    public static var thermal: Int { 12 }
    /// `/led/gain/1` … `/led/gain/8`: each LED port's share of the brightness (colour for RGB).
    public static func gain(port: Int) -> Int { 12 + port }
    public static var portCount: Int { 8 }

    /// The sources `/led/source s` names, in the order of their toggles.
    public static let sourceNames = ["entrainment", "beat", "manual", "pattern"]
    public static let thermalStates = ["nominal", "fair", "serious", "critical"]

    /// Hard limits no setting can pass: the strobe flashes between these rates only (outside
    /// them it is dark), and no duty cycle beyond the parameter's range exists.
    public static var minimumStrobeRate: Double { 0.5 }
    public static var maximumStrobeRate: Double { 50 }

    public static let descriptor = PluginDescriptor(id: "led", parameters: [
        ControlDescriptor("/led/arm", .toggle(defaultValue: false), personOnly: true,
                      "strobe armed: only then do flashing sources (entrainment, beat, pattern) reach the LED ports; always off at start unless --arm-strobe"),
        ControlDescriptor("/led/source/entrainment", .toggle(defaultValue: true),
                      "source: a strobe at voice 1's beat frequency, phase-locked to the sound's modulation"),
        ControlDescriptor("/led/source/beat", .toggle(defaultValue: false), "source: a flash on each beat found in beat_in"),
        ControlDescriptor("/led/source/manual", .toggle(defaultValue: false), "source: the level set by /led/manual (steady, not flashing)"),
        ControlDescriptor("/led/source/pattern", .toggle(defaultValue: false), "source: the intensity of the playing haptic/light pattern"),
        ControlDescriptor("/led/level", .continuous(range: 0...1, defaultValue: 1, curve: .linear), glide: 0.05,
                      "brightness of the flashing sources (CV 0..1)"),
        ControlDescriptor("/led/duty", .continuous(range: 0...0.9, defaultValue: 0, curve: .linear),
                      "strobe on-time as a fraction of its period; 0 = automatic (50 % up to 30 Hz, 15 % above)"),
        ControlDescriptor("/led/edge", .continuous(range: 0...20, defaultValue: 1, curve: .linear), unit: "ms",
                      "strobe rise and fall time (raised cosine); square shape only"),
        ControlDescriptor("/led/shape", .choice(options: ["square", "sine"], defaultIndex: 0),
                      "strobe waveform: square (with edges) or sine (gentler: no harmonics)"),
        ControlDescriptor("/led/beat/decay", .continuous(range: 20...1000, defaultValue: 150, curve: .linear), unit: "ms",
                      "beat flash: time for the flash to fall to 1/e"),
        ControlDescriptor("/led/manual", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "level of the manual source"),
        ControlDescriptor("/led/offset", .continuous(range: -200...1000, defaultValue: 0, curve: .linear), unit: "ms",
                      "extra delay of light and haptics for latency JACK cannot see (Bluetooth headphones: 150-300)"),
        ControlDescriptor("/led/thermal", .choice(options: thermalStates, defaultIndex: 0),
                      "thermal state the fixture reports; the worse of it and the model's caps the level at 1 / 0.5 / 0.1 / 0"),
    ] + (1...8).map { port in
        ControlDescriptor("/led/gain/\(port)", .continuous(range: 0...1, defaultValue: 1, curve: .linear), glide: 0.05,
                      "LED port \(port)'s share of the brightness (\(port == 1 ? "led" : "led_\(port)"); e.g. a colour for RGB)")
    })
}
