import EntrainAddressSpace

/// One metric steering one address of the client: the metric's 0…1 value placed between two
/// fader positions (0…1 on the target's own range and curve), gliding over a second. Off until
/// a target is set; HRV addresses cannot be targets (no loops).
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

    /// Whether `address` may be steered: a ranged number or a toggle, settable, not HRV's own.
    static func check(_ address: String, in space: AddressSpace?) throws(ControlError) {
        guard !address.hasPrefix(HRVFamily.prefix) else { throw ControlError(address, "an HRV address cannot be a mapping target") }
        guard let space else { return }
        guard let (_, descriptor) = space.lookup(address) else { throw ControlError.unknown(address) }
        do { _ = try descriptor.value(fromNormalized: 0) } catch {
            throw ControlError(address, "cannot be a mapping target: only settable ranged numbers and toggles can")
        }
    }
}
