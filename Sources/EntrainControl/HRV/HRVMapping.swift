import EntrainAddressSpace

/// One metric steering one address of the client: the metric's 0…1 value placed between two
/// fader positions (0…1 on the target's own range and curve), gliding over a second. Off until
/// a target is set; the targets obey `MappingTargets` (no HRV address, no person's decision).
struct HRVMapping: Sendable, Equatable {
    static let sources = ["coherence", "entrainment", "calm"]
    static let glideSeconds = 1.0

    var target: String?
    var low = 0.0
    var high = 1.0

    /// The change `level` (0…1) asks of the target.
    func change(_ level: Double, in space: AddressSpace) throws -> ControlChange? {
        guard let target else { return nil }
        guard let (_, descriptor) = space.lookup(target) else { throw ControlError.unknown(target) }
        let position = low + min(1, max(0, level)) * (high - low)
        return ControlChange(target, try descriptor.value(fromNormalized: position),
                             glide: descriptor.glideSeconds == nil ? nil : Self.glideSeconds)
    }

    /// The targets a change of a mapping or pacer address names (none for other addresses).
    static func targets(of change: ControlChange) -> [String] {
        guard change.address.hasPrefix(HRVFamily.prefix + "map/") || change.address == HRVFamily.prefix + "pacer/targets",
              let text = change.value.text else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "none" }
    }
}
