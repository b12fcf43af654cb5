import ArgumentParser
import EntrainCore
import EntrainControl
import EntrainEngine
import Kessho

/// Parameter options shared by `run`, `render` and `bench`. Each maps onto an address of the
/// parameter table, which does all validation: the CLI and OSC enforce the same ranges.
struct EngineOptions: ParsableArguments {
    @Option(help: "Beat mode: binaural, monaural or isochronic.")
    var mode: String?
    @Option(help: "Carrier frequency in Hz (20–1500).")
    var carrier: String?
    @Option(help: "Beat (or isochronic pulse) frequency in Hz (0–100; isochronic 0.5–100).")
    var beat: String?
    @Option(help: "Entrainment volume, linear 0–1.")
    var volume: String?
    @Option(help: "Carrier waveform: sine, square, triangle or saw (band-limited).")
    var waveform: String?
    @Option(help: "Noise bed colour: white, pink or brown.")
    var noise: String?
    @Option(name: .customLong("noise-level"), help: "Noise bed level, 0–1.")
    var noiseLevel: String?
    @Option(help: "Binaural convention: offset (L carrier, R carrier+beat) or centered (L carrier+beat/2, R carrier-beat/2, as SBaGen).")
    var convention: String?
    @Option(help: "Isochronic pulse duty cycle, 0.05–0.95.")
    var duty: String?
    @Option(name: .customLong("fade-in"), help: "Fade-in on start, seconds.")
    var fadeIn: String?
    @Option(name: .customLong("fade-out"), help: "Fade-out on stop, seconds.")
    var fadeOut: String?
    @Option(help: "Output ceiling in dBFS (-40 to -0.1). Nothing can exceed it.")
    var ceiling: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("Set any parameter by its OSC address, e.g. --set /entrain/voice/2/level=0.5, or an ambient key, e.g. --set /ambient/tension=0.6.", valueName: "address=value"))
    var assignments: [String] = []

    static let ambientPrefix = "/ambient/"

    /// `--set` as (address, text) pairs.
    func splitAssignments() throws -> [(String, String)] {
        try assignments.map { assignment in
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--set expects address=value, got '\(assignment)'") }
            return (parts[0], parts[1])
        }
    }

    /// `--set /ambient/KEY=VALUE`: changes to the ambient engine's Kessho state, checked by key.
    func ambientChanges() throws -> [(key: String, value: KesshoValue)] {
        try splitAssignments().filter { $0.0.hasPrefix(Self.ambientPrefix) }.map { address, text in
            let key = String(address.dropFirst(Self.ambientPrefix.count))
            do {
                return (key, try AmbientParameters.value(text: text, for: key))
            } catch {
                throw ValidationError("\(address): \(error)")
            }
        }
    }

    /// Whether any entrainment setting was given (a render with an ambient preset then mixes both).
    var givesEntrainment: Bool {
        [mode, carrier, beat, volume, waveform, noise, noiseLevel, convention, duty].contains { $0 != nil }
            || assignments.contains { $0.hasPrefix("/entrain/") }
    }

    /// `base` (default: the table's defaults) with every given option applied, validated together.
    /// `ambientHandled`: the command applies `--set /ambient/…` itself (run, render); elsewhere
    /// such a setting is an error rather than silently ignored.
    func parameterValues(over base: ParameterValues? = nil, ambientHandled: Bool = false) throws -> ParameterValues {
        if !ambientHandled, let address = try splitAssignments().first(where: { $0.0.hasPrefix(Self.ambientPrefix) })?.0 {
            throw ValidationError("\(address): ambient settings apply to run and render only")
        }
        let table = Engine.parameterTable
        var values = base ?? table.defaults
        let named: [(String?, String)] = [
            (mode, "/entrain/mode"), (carrier, "/entrain/carrier"), (beat, "/entrain/beat"),
            (volume, "/entrain/volume"), (waveform, "/entrain/waveform"), (noise, "/entrain/noise"),
            (noiseLevel, "/entrain/noise/level"), (convention, "/entrain/convention"), (duty, "/entrain/duty"),
            (fadeIn, "/master/fade-in"), (fadeOut, "/master/fade-out"), (ceiling, "/master/ceiling"),
        ]
        var changes = named.compactMap { text, address in text.map { (address, $0) } }
        for (address, text) in try splitAssignments() where !address.hasPrefix(Self.ambientPrefix) {
            changes.append((address, text))
        }
        do {
            for (address, text) in changes {
                let entry = try table.entry(for: address)
                values[entry.index] = try entry.spec.parse(text)
            }
            try table.checkConstraints(values)
        } catch let error as ParameterError {
            throw ValidationError(error.description)
        }
        return values
    }
}
