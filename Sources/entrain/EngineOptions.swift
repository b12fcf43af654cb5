import ArgumentParser
import EntrainCore
import EntrainAddressSpace
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

    /// `--set` as checked changes, for any family the client starts with: the same rules and
    /// the same errors as OSC.
    func setChanges() throws -> [ControlChange] {
        try assignments.map { assignment in
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--set expects address=value, got '\(assignment)'") }
            do {
                return try StandardAddresses.parse(parts[0], .text(parts[1]), from: .person)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// `--set` changes for the ambient engine's Kessho state.
    func ambientChanges() throws -> [ControlChange] { try setChanges().filter { AmbientFamily.owns($0.address) } }

    /// Whether any entrainment setting was given (a render with an ambient preset then mixes both).
    var givesEntrainment: Bool {
        [mode, carrier, beat, volume, waveform, noise, noiseLevel, convention, duty].contains { $0 != nil }
            || assignments.contains { $0.hasPrefix("/entrain/") }
    }

    /// `base` (default: the table's defaults) with every given option applied, validated together.
    /// `otherFamiliesHandled`: the command applies `--set` of other families itself (run, render);
    /// elsewhere such a setting is an error rather than silently ignored.
    func parameterValues(over base: ParameterValues? = nil, otherFamiliesHandled: Bool = false) throws -> ParameterValues {
        let table = Engine.parameterTable
        let changes = try setChanges()
        if !otherFamiliesHandled, let other = changes.first(where: { !EngineFamily.owns($0.address) }) {
            throw ValidationError("\(other.address): this setting applies to run and render only")
        }
        var values = base ?? table.defaults
        let named: [(String?, String)] = [
            (mode, "/entrain/mode"), (carrier, "/entrain/carrier"), (beat, "/entrain/beat"),
            (volume, "/entrain/volume"), (waveform, "/entrain/waveform"), (noise, "/entrain/noise"),
            (noiseLevel, "/entrain/noise/level"), (convention, "/entrain/convention"), (duty, "/entrain/duty"),
            (fadeIn, "/master/fade-in"), (fadeOut, "/master/fade-out"), (ceiling, "/master/ceiling"),
        ]
        do {
            var given: [ControlChange] = []
            for (text, address) in named { if let text { given.append(try StandardAddresses.parse(address, .text(text), from: .person)) } }
            values = try EngineFamily.fold(given + changes, into: values)
            try table.checkConstraints(values)
        } catch let error as ControlError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("\(error)")
        }
        return values
    }
}
