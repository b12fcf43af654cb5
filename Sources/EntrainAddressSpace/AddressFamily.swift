/// One family of addresses (the engine's parameters, the Kessho keys, a hosted plugin's
/// controls, HRV metrics …). A family answers the same questions in the same way, so the
/// surfaces — the OSC router, `--set`, feedback, the schema, presets and session stages — loop
/// over families and know none of them by name.
///
/// Families are called from control threads only (OSC, the run loop, sessions) and must be
/// thread-safe. Values are checked by the descriptor before `set` sees them.
public protocol AddressFamily: AnyObject, Sendable {
    /// A short name ("engine", "ambient"), used as the preset block's key and in the schema.
    var name: String { get }
    /// Every address, in the order the schema and presets list them.
    var descriptors: [ControlDescriptor] { get }
    /// The descriptor of `address`, or nil if the family does not have it.
    func descriptor(for address: String) -> ControlDescriptor?
    /// The value now (what a query answers and feedback compares).
    func value(of address: String) -> ControlValue?
    /// Several checked changes that belong together, all on engine frame `frame` (nil: as soon
    /// as possible). If one is refused (a rule between values), none applies.
    func set(_ changes: [ControlChange], at frame: Int64?) throws
    /// Every address with its value now: the feedback's snapshot, and what a preset stores.
    func snapshot() -> [(address: String, value: ControlValue)]
    /// Addresses a preset or the last-used settings never carry (e.g. arming the strobe).
    func isTransient(_ address: String) -> Bool
    /// What a sender can do here besides setting values (`/ambient/play`, `/session/load`).
    var commands: [CommandDescriptor] { get }
    /// What the family sends without being asked (meters, beats).
    var published: [PublishedDescriptor] { get }
    /// The family's section of osc-schema.md: a title and what to know before its table.
    var schemaTitle: String { get }
    var schemaIntroduction: String { get }
}

extension AddressFamily {
    public func snapshot() -> [(address: String, value: ControlValue)] {
        descriptors.compactMap { d in value(of: d.address).map { (d.address, $0) } }
    }

    public func isTransient(_ address: String) -> Bool { false }
    public var commands: [CommandDescriptor] { [] }
    public var published: [PublishedDescriptor] { [] }
    public var schemaTitle: String { name }
    public var schemaIntroduction: String { "" }
}
