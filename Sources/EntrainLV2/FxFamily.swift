import EntrainAddressSpace
import EntrainEngine

/// The hosted plugins' controls as a family of the address space: `/fx/BUS/N/SYMBOL` for every
/// control port of slot N (inputs settable, outputs such as meters and gain reduction
/// read-only), and `/fx/BUS/N/bypass`. The tree changes as plugins come and go.
public final class FxFamily: AddressFamily {
    public let name = "fx"
    public static let prefix = FxChainAddresses.prefix
    let chains: InsertChains

    public init(_ chains: InsertChains) { self.chains = chains }

    public static func owns(_ address: String) -> Bool { address.hasPrefix(prefix) }

    /// Every address, bus by bus: the chain, then slot by slot.
    public var descriptors: [ControlDescriptor] {
        InsertBus.allCases.flatMap { bus in
            [Self.chainDescriptor(bus)] + chains.chain(bus).enumerated().flatMap { i, loaded in Self.descriptors(loaded, bus: bus, index: i) }
        }
    }

    static func chainDescriptor(_ bus: InsertBus) -> ControlDescriptor { FxChainAddresses.descriptor(bus) }

    static func bus(ofChain address: String) -> InsertBus? { FxChainAddresses.bus(of: address) }

    static func descriptors(_ loaded: LoadedInsert, bus: InsertBus, index: Int) -> [ControlDescriptor] {
        let base = "\(prefix)\(bus.name)/\(index + 1)/"  // slots count from 1 on every surface
        var out = [ControlDescriptor(base + "bypass", .toggle, default: .bool(false), glide: nil,
                                     "bypass \(loaded.plugin.name) (a \(Int(InsertChains.fadeSeconds * 1000)) ms crossfade)")]
        for port in loaded.plugin.ports where port.kind == .controlIn || port.kind == .controlOut {
            out.append(descriptor(port, address: base + port.symbol, plugin: loaded.plugin.name))
        }
        return out
    }

    static func descriptor(_ port: LV2Port, address: String, plugin: String) -> ControlDescriptor {
        let summary = "\(plugin): \(port.name)"
        let readOnly = port.kind == .controlOut
        if port.toggled { return ControlDescriptor(address, .toggle, default: .bool(port.startValue != 0), glide: nil, readOnly: readOnly, summary) }
        if port.enumeration && !port.scalePoints.isEmpty {
            let labels = port.scalePoints.map(\.label)
            let start = port.scalePoints.min { abs($0.value - port.startValue) < abs($1.value - port.startValue) }!.label
            // Points in order of value, so index N is the Nth setting, as for the engine's choices.
            return ControlDescriptor(address, .choice(options: labels, indexed: true), default: .text(start), glide: nil, readOnly: readOnly, summary)
        }
        var range: ClosedRange<Double>?
        if let lo = port.minimum, let hi = port.maximum, lo.isFinite, hi.isFinite, lo <= hi { range = Double(lo)...Double(hi) }
        let curve: ControlDescriptor.Curve = port.logarithmic && (range?.lowerBound ?? 0) > 0 ? .logarithmic : .linear
        return ControlDescriptor(address, .number(range: range, step: nil, curve: curve, integer: port.integer), unit: port.unit,
                                 default: .number(Double(port.startValue)), glide: nil, readOnly: readOnly, summary)
    }

    /// Bus, slot and the rest of `address` ("bypass" or a port symbol).
    func parts(_ address: String) -> (bus: InsertBus, slot: LoadedInsert, index: Int, name: String)? {
        guard Self.owns(address) else { return nil }
        let pieces = address.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 3, let bus = InsertBus.allCases.first(where: { $0.name == pieces[0] }),
              let number = Int(pieces[1]) else { return nil }
        let list = chains.chain(bus), index = number - 1
        guard list.indices.contains(index) else { return nil }
        return (bus, list[index], index, String(pieces[2]))
    }

    public func descriptor(for address: String) -> ControlDescriptor? {
        if let bus = Self.bus(ofChain: address) { return Self.chainDescriptor(bus) }
        guard let p = parts(address) else { return nil }
        if p.name == "bypass" { return Self.descriptors(p.slot, bus: p.bus, index: p.index)[0] }
        guard let port = p.slot.plugin.ports.first(where: { $0.symbol == p.name && ($0.kind == .controlIn || $0.kind == .controlOut) }) else { return nil }
        return Self.descriptor(port, address: address, plugin: p.slot.plugin.name)
    }

    public func value(of address: String) -> ControlValue? {
        if let bus = Self.bus(ofChain: address) { return .text(chains.text(bus).text) }
        guard let p = parts(address) else { return nil }
        if p.name == "bypass" { return .bool(!p.slot.heard) }
        guard let port = p.slot.plugin.ports.first(where: { $0.symbol == p.name }) else { return nil }
        let v = p.slot.value(port.index)
        if port.toggled { return .bool(v != 0) }
        if port.enumeration, let point = port.scalePoints.min(by: { abs($0.value - v) < abs($1.value - v) }) { return .text(point.label) }
        return .number(Double(v))
    }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        for change in changes {
            if let bus = Self.bus(ofChain: change.address) {
                do { try chains.replace(bus, with: try ChainText(parsing: change.value.text ?? ""), at: frame) } catch let error as LV2Error {
                    throw ControlError(change.address, error.description)
                }
                continue
            }
            guard let p = parts(change.address) else { throw ControlError.unknown(change.address) }
            if p.name == "bypass" {
                try chains.setHeard(!(change.value.bool ?? false), slot: p.index, on: p.bus, at: frame)
                continue
            }
            guard let port = p.slot.plugin.ports.first(where: { $0.symbol == p.name && $0.kind == .controlIn }) else {
                throw ControlError(change.address, "is read-only")
            }
            let number: Float
            switch change.value {
            case .number(let n): number = Float(n)
            case .bool(let b): number = b ? 1 : 0
            case .text(let label):
                guard let point = port.scalePoints.first(where: { $0.label == label }) else { throw ControlError(change.address, "'\(label)' is not one of its values") }
                number = point.value
            }
            try chains.setControl(port.index, to: number, slot: p.index, on: p.bus, at: frame)
        }
    }

    /// A preset carries each chain whole (`/fx/BUS/chain`, plugins and values); the slots'
    /// own addresses would name slots that do not exist yet when it loads.
    public func isTransient(_ address: String) -> Bool { Self.bus(ofChain: address) == nil }

    public var schemaTitle: String { "Hosted LV2 plugins" }
    public var schemaIntroduction: String {
        """
        Insert chains on the `entrainment`, `ambient` and (mono) `haptic` buses, before their ceilings (which stay last).
        `/fx/BUS/add s:URI` appends a plugin (the reply names its slot), `/fx/BUS/remove i` and
        `/fx/BUS/move i i` change the chain, and every control port of slot N appears as
        `/fx/BUS/N/SYMBOL` (outputs read-only) with `/fx/BUS/N/bypass`. No plugins are loaded
        when the schema is written, so this table is empty here; see docs/lv2.md.
        """
    }
}
