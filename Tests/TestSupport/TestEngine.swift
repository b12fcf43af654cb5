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
