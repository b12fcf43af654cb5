import Synchronization

/// Every addressable value of the client, as families. Families may come and go while running
/// (a hosted plugin loaded or removed); `generation` counts those changes so surfaces that
/// cache the tree (feedback, discovery) know to look again.
public final class AddressSpace: Sendable {
    private struct Registry {
        var families: [any AddressFamily] = []
        var generation = 0
    }

    private let registry = Mutex(Registry())
    private let catalogs = Mutex<[Catalog: @Sendable () -> [String]]>([:])

    public init(_ families: [any AddressFamily] = []) {
        registry.withLock { $0.families = families }
    }

    public var families: [any AddressFamily] { registry.withLock { $0.families } }
    public var generation: Int { registry.withLock { $0.generation } }

    /// Add a family (replacing one of the same name).
    public func add(_ family: any AddressFamily) {
        registry.withLock { r in
            r.families.removeAll { $0.name == family.name }
            r.families.append(family)
            r.generation += 1
        }
    }

    public func remove(named name: String) {
        registry.withLock { r in
            r.families.removeAll { $0.name == name }
            r.generation += 1
        }
    }

    /// Where the names of `catalog` come from (a store's listing), read at each `names(in:)`.
    public func provide(_ catalog: Catalog, _ names: @escaping @Sendable () -> [String]) {
        catalogs.withLock { $0[catalog] = names }
    }

    /// The names `catalog` lists now; nil when nothing here provides it.
    public func names(in catalog: Catalog) -> [String]? {
        catalogs.withLock { $0[catalog] }.map { $0() }
    }

    /// The family and descriptor of `address` (without a `/norm` suffix).
    public func lookup(_ address: String) -> (family: any AddressFamily, descriptor: ControlDescriptor)? {
        for family in families {
            if let descriptor = family.descriptor(for: address) { return (family, descriptor) }
        }
        return nil
    }

    /// The command at `address`, from whichever family declares it.
    public func command(_ address: String) -> CommandDescriptor? {
        for family in families { if let command = family.commands.first(where: { $0.address == address }) { return command } }
        return nil
    }

    /// Check `given` for `address` (natural units, or 0…1 when `normalized`) with the one set
    /// of rules every family shares.
    public func parse(_ address: String, _ given: ControlValue, normalized: Bool = false) throws(ControlError) -> ControlChange {
        guard let (_, descriptor) = lookup(address) else { throw .unknown(address) }
        return try descriptor.change(given, normalized: normalized)
    }

    /// Apply checked changes that came through `door`, each family's as one batch, on `frame`
    /// (nil: now). A change only a person may make, through another door, refuses them all.
    /// Families are applied in their order; a family that refuses leaves the ones after it untouched.
    public func set(_ changes: [ControlChange], at frame: Int64? = nil, from door: ChangeDoor) throws {
        var batches: [(any AddressFamily, [ControlChange])] = []
        for change in changes {
            guard let (family, descriptor) = lookup(change.address) else { throw ControlError.unknown(change.address) }
            try descriptor.check(door: frame == nil ? door : (door == .person ? .schedule : door))
            if let i = batches.firstIndex(where: { $0.0 === family }) { batches[i].1.append(change) } else { batches.append((family, [change])) }
        }
        for (family, batch) in batches { try family.set(batch, at: frame) }
    }

    /// Every family's values now, less what a preset never carries: what a preset or the
    /// last-used settings store.
    public func presetSnapshot() -> [(address: String, value: ControlValue)] {
        families.flatMap { family in
            family.snapshot().filter { !family.isTransient($0.address) && family.descriptor(for: $0.address)?.personOnly != true }
        }
    }

    /// The value of `address` now.
    public func value(of address: String) throws(ControlError) -> ControlValue {
        guard let (family, _) = lookup(address), let value = family.value(of: address) else { throw .unknown(address) }
        return value
    }
}
