import EntrainAddressSpace
import EntrainCore

/// Parameters of the master section: the output ceiling and the start/stop fades.
public enum MasterParameters {
    public static var ceiling: Int { 0 }
    public static var fadeIn: Int { 1 }
    public static var fadeOut: Int { 2 }

    public static let descriptor = PluginDescriptor(id: "master", parameters: [
        ControlDescriptor("/master/ceiling", .continuous(range: -40 ... -0.1, defaultValue: -1, curve: .linear),
                      unit: "dBFS", "limiter ceiling for every audio output; nothing can exceed it"),
        ControlDescriptor("/master/fade-in", .continuous(range: 0...600, defaultValue: 2, curve: .linear),
                      unit: "s", "fade-in when output starts or resumes"),
        ControlDescriptor("/master/fade-out", .continuous(range: 0...600, defaultValue: 2, curve: .linear),
                      unit: "s", "fade-out when output stops (Ctrl-C, end of render)"),
    ])
}
