import EntrainAddressSpace

/// What the `link` family needs of the Link session (the JACK client's `LinkSession`; a
/// protocol here so the control plane does not depend on the client).
public protocol LinkSessionControl: AnyObject, Sendable {
    var enabled: Bool { get set }
    var peers: Int { get }
    var tempo: Double { get set }
    var quantum: Double { get set }
    var startStop: Bool { get set }
    /// "follow" or "lead-from-beat".
    var roleName: String { get set }
}

/// Ableton Link as a family of the address space: join the session, its tempo, the bar's length
/// for phase, start/stop sharing and who leads. The peer count is published.
public final class LinkFamily: AddressFamily {
    public static let prefix = "/link/"
    public static let roles = ["follow", "lead-from-beat"]
    public let name = "link"
    private let session: LinkSessionControl

    public init(_ session: LinkSessionControl) { self.session = session }

    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }

    public static let standardDescriptors: [ControlDescriptor] = [
        ControlDescriptor(prefix + "enabled", .toggle, default: .bool(false), glide: nil,
                          "join the Ableton Link session on the local network (--link)"),
        ControlDescriptor(prefix + "role", .choice(options: roles, indexed: true), default: .text("follow"), glide: nil,
                          "follow: the session's beat drives the LED beat, the ambient grid, the timebase and (--midi-clock-source link) the MIDI clock, while it has peers; lead-from-beat: the beats found on beat_in set the session's tempo and phase (smoothed; held when the beat is lost)"),
        ControlDescriptor(prefix + "tempo", .number(range: 20...999, step: nil, curve: .linear, integer: false), unit: "BPM",
                          default: .number(120), glide: nil, "the session's tempo (setting it changes it for every peer)"),
        ControlDescriptor(prefix + "quantum", .number(range: 1...16, step: 1, curve: .linear, integer: true), unit: "beats",
                          default: .number(4), glide: nil, "beats per bar: the length over which phase agrees with the peers"),
        ControlDescriptor(prefix + "startstop", .toggle, default: .bool(false), glide: nil,
                          "share start and stop with the peers that do (Link's start/stop sync)"),
        ControlDescriptor(prefix + "peers", .number(range: 0...1000, step: 1, curve: .linear, integer: true), default: .number(0), glide: nil,
                          readOnly: true, note: "published", "how many other Link peers are in the session"),
    ]
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }
    /// The session's tempo and its peers belong to the network, not to a preset.
    public func isTransient(_ address: String) -> Bool { address == Self.prefix + "peers" || address == Self.prefix + "tempo" }
    public var schemaTitle: String { "Ableton Link" }
    public var schemaIntroduction: String {
        "Tempo and phase shared with other apps and machines on the local network (docs/rig.md). `--link` joins at start."
    }

    public func value(of address: String) -> ControlValue? {
        switch address.dropFirst(Self.prefix.count) {
        case "enabled": return .bool(session.enabled)
        case "role": return .text(session.roleName)
        case "tempo": return .number((session.tempo * 100).rounded() / 100)
        case "quantum": return .number(session.quantum)
        case "startstop": return .bool(session.startStop)
        case "peers": return .number(Double(session.peers))
        default: return nil
        }
    }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        for change in changes {
            switch (change.address.dropFirst(Self.prefix.count), change.value) {
            case ("enabled", .bool(let on)): session.enabled = on
            case ("role", .text(let role)) where Self.roles.contains(role): session.roleName = role
            case ("role", .number(let index)) where Self.roles.indices.contains(Int(index)): session.roleName = Self.roles[Int(index)]
            case ("tempo", .number(let bpm)): session.tempo = bpm
            case ("quantum", .number(let beats)): session.quantum = beats
            case ("startstop", .bool(let on)): session.startStop = on
            default: throw ControlError.unknown(change.address)
            }
        }
    }
}
