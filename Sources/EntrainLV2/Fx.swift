import EntrainAddressSpace
import EntrainEngine
import Foundation

/// Hosted plugins wired into a running client: the chains, their family in the address space
/// (re-registered whenever a chain changes, so cached trees look again). The chain-changing
/// commands are bound by the control side (`FxCommands(chains)`).
public struct Fx: Sendable {
    public let chains: InsertChains
    public let family: FxFamily

    /// Start with `inserts` ("BUS:URI", in order) loaded; throws naming the one that failed.
    public init(host: EngineHost, space: AddressSpace, inserts: [String]) throws {
        // Reading every bundle's data takes a moment: done now, off the OSC thread, unless needed at once.
        if inserts.isEmpty { DispatchQueue.global(qos: .utility).async { _ = LV2World.shared } }
        let chains = InsertChains(host: host)
        let family = FxFamily(chains)
        chains.onChange = { [weak space] in space?.add(family) }
        space.add(family)
        for insert in inserts {
            let (bus, uri) = try Self.parse(insert)
            try chains.add(uri, to: bus)
        }
        self.chains = chains
        self.family = family
    }

    /// "BUS:URI" → bus and URI (URIs have colons of their own: the first one splits).
    public static func parse(_ text: String) throws -> (InsertBus, String) {
        guard let colon = text.firstIndex(of: ":") else { throw LV2Error.unknownBus(text) }
        let name = String(text[..<colon]), uri = String(text[text.index(after: colon)...])
        guard let bus = InsertBus.allCases.first(where: { $0.name == name }) else { throw LV2Error.unknownBus(name) }
        return (bus, uri)
    }
}
