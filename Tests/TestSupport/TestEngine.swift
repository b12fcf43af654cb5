import EntrainAddressSpace
import EntrainControl
import EntrainCore
import EntrainEngine

/// Engines configured the way a user would: addresses and textual values, through the table.
public enum TestEngine {
    /// A host with `settings` applied over the defaults. Fades are 0 unless given, so what is
    /// measured is the steady signal.
    public static func host(_ settings: [String: String] = [:], sampleRate: Double = 48_000) throws -> EngineHost {
        try EngineHost(sampleRate: sampleRate, values: values(settings))
    }

    /// The values `host` would start with.
    public static func values(_ settings: [String: String] = [:]) throws -> ParameterValues {
        let table = Engine.parameterTable
        var values = table.defaults
        var all = ["/master/fade-in": "0", "/master/fade-out": "0"]
        for (k, v) in settings { all[k] = v }
        for (address, text) in all {
            values = try EngineFamily.fold([try StandardAddresses.parse(address, .text(text), from: .person)], into: values)
        }
        return values
    }

    /// Render `seconds` of the entrainment pair.
    public static func render(_ host: EngineHost, seconds: Double, blockSize: Int = 1024) -> (left: [Float], right: [Float]) {
        OfflineRenderer(host: host, blockSize: blockSize).renderStereo(frames: Int(seconds * host.sampleRate))
    }
}

extension EngineHost {
    /// Set `address` the way every door does: checked once by its descriptor, then through the
    /// engine's family (numbers as the engine counts them: an option's index, 1 or 0).
    public func change(_ address: String, _ value: Double, glide: Double? = nil, at frame: Int64? = nil) throws {
        let family = EngineFamily(CurrentEngine(self))
        guard let descriptor = family.descriptor(for: address) else { throw ControlError.unknown(address) }
        try family.set([try descriptor.change(.number(value), glide: glide)], at: frame)
    }
}
