import EntrainAddressSpace
import EntrainLV2

/// The client's commands that belong to no family of values (the blackout, sessions, presets,
/// playlists, patterns, plugin chains) and what it sends without being asked: the "Commands"
/// and "Sent by entrain" sections of the schema, and their OSCQuery nodes.
public final class ClientFamily: AddressFamily {
    public let name = "client"
    public init() {}

    public var descriptors: [ControlDescriptor] { [] }
    public func descriptor(for address: String) -> ControlDescriptor? { nil }
    public func value(of address: String) -> ControlValue? { nil }
    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        if let change = changes.first { throw ControlError.unknown(change.address) }
    }

    public var schemaTitle: String { "Commands" }
    public var commands: [CommandDescriptor] { Self.standardCommands }
    public var published: [PublishedDescriptor] { Self.standardPublished }

    public static let standardCommands: [CommandDescriptor] = ClientCommands.declarations.map(\.descriptor)
        + SessionTransport.declarations.map(\.descriptor) + LibraryCommands.declarations.map(\.descriptor)
        + FxChainAddresses.standardCommands

    public static let standardPublished: [PublishedDescriptor] = [
        PublishedDescriptor("every parameter address", addresses: [],
                            arguments: "its value, in the type its row declares (float; string for choices and lists; `T`/`F` for toggles)",
                            when: "to subscribers and `--osc-feedback HOST:PORT` targets, whenever the value changes, from any source; at most 30 per second per address"),
        PublishedDescriptor("every `ADDRESS/norm`", addresses: [], arguments: "`f` 0…1", when: "alongside the above"),
        PublishedDescriptor("/meter/entrainment", type: "ff", arguments: "`f f`: peak of entrainment_L and _R in dBFS (−120 = silence)",
                            when: "to subscribers, 15 times a second"),
        PublishedDescriptor("/session/state", type: "s", arguments: "`s`: `idle`, `playing`, `paused` or `finished`",
                            when: "to subscribers once a second, and on `/session/status`"),
        PublishedDescriptor("`/session/name`, `/session/position`, `/session/stage`, `/session/remaining`",
                            addresses: [("/session/name", "s"), ("/session/position", "f"), ("/session/stage", "is"), ("/session/remaining", "f")],
                            arguments: "`s:name`; `f:seconds`; `i:number s:name`; `f:seconds`", when: "with `/session/state`, when a session is loaded"),
        PublishedDescriptor("/timer/remaining", type: "f", arguments: "`f:seconds` (−1: no timer)", when: "with `/session/state`"),
        PublishedDescriptor("/beat/onset", type: "f", arguments: "`f`: strength 0…1 (the detection function against its recent maximum)", when: """
            to subscribers, in a bundle time-tagged with the frame the attack began in beat_in (less beat_in's capture latency), \
            within one period + 2 ms of the hop that detected it
            """),
        PublishedDescriptor("/beat/beat", type: "i", arguments: "`i`: beat count since the tracker locked (1, 2, 3, …; restarts after a loss of confidence)", when: """
            to subscribers, in a bundle time-tagged with the predicted beat time, sent when the engine reaches that frame; the \
            bundle also holds `/beat/bpm`, `/beat/confidence` and `/beat/next`
            """),
        PublishedDescriptor("/beat/next", type: "f", arguments: "`f:seconds` from this beat to the predicted next one", when: "in each beat's bundle"),
        PublishedDescriptor("/beat/bpm", type: "f", arguments: "`f:BPM` (0 = no tempo yet)",
                            when: "in each beat's bundle, and on change (≥ 0.05 BPM, at most 30 per second)"),
        PublishedDescriptor("/beat/confidence", type: "f", arguments: "`f` 0…1: share of recent predicted beats an onset confirmed",
                            when: "in each beat's bundle, and on change (≥ 0.01, at most 30 per second)"),
        PublishedDescriptor("/led/thermal/state", type: "s", arguments: """
            `s`: `nominal`, `fair`, `serious` or `critical` — the LED thermal state in force (the worse of the model and `/led/thermal`)
            """, when: "to subscribers, on change"),
        PublishedDescriptor("/beat/level", type: "f", arguments: "`f`: beat_in's loudest hop since the last report, RMS dBFS (−150 = silence)",
                            when: "to subscribers, 15 times a second"),
        PublishedDescriptor("/beat/bands", type: "ffffffffffffffff", arguments: """
            16 × `f` 0…1: beat_in's band levels, 50 Hz to 16 kHz log-spaced, lowest first (log magnitudes of the analysis's \
            FFT; a fast attack and a 120 ms fall)
            """, when: "to subscribers, 15 times a second, while beat_in sounds (once more when it falls silent)"),
        PublishedDescriptor("/error", type: "ss", arguments: "`s:address s:reason`",
                            when: "to the sender of a bad message (address empty when the packet could not be read)"),
        PublishedDescriptor("`/pong`, `/status`, query answers", addresses: [], arguments: "as above", when: "to the sender"),
    ]
}
