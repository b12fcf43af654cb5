import EntrainAddressSpace
import ArgumentParser
import EntrainCore
import EntrainEngine

/// Light and haptic options of `run`: arming, the LED sources and the audio/visual offset.
struct LightOptions: ParsableArguments {
    @Flag(name: .customLong("arm-strobe"),
          help: "Arm the strobe: flashing light may reach the LED ports. Read the photosensitivity warning in the README first.")
    var armStrobe = false
    @Option(name: .customLong("led-source"), help: "LED sources to mix, comma-separated: entrainment, beat, manual, pattern (or none).")
    var ledSource: String?
    @Option(name: .customLong("led-ports"), help: "LED CV ports, 1-8: led, led_2 … led_N (each scaled by /led/gain/N, e.g. RGB).")
    var ledPorts = 1
    @Flag(name: .customLong("haptic-cv"), help: "Also register haptic_intensity and haptic_sharpness CV ports.")
    var hapticCV = false
    @Option(name: .customLong("av-offset-ms"), help: "Extra delay of light and haptics, ms (-200 to 1000), for latency JACK cannot see (Bluetooth: 150-300).")
    var avOffset: Double?

    /// `values` with these applied. The strobe is disarmed unless --arm-strobe, whatever a
    /// preset or the last-used settings say: a run never starts flashing on its own.
    func apply(to values: ParameterValues) throws -> ParameterValues {
        guard (1...8).contains(ledPorts) else { throw ValidationError("--led-ports must be 1 to 8, got \(ledPorts)") }
        let table = Engine.parameterTable
        var v = values
        v[try table.entry(for: "/led/arm").index] = armStrobe ? 1 : 0
        if let ledSource {
            let wanted = ledSource.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { $0 != "none" }
            for name in wanted where !LightParameters.sourceNames.contains(name) {
                throw ValidationError("--led-source: unknown source '\(name)' (sources: \(LightParameters.sourceNames.joined(separator: ", ")), or none)")
            }
            for name in LightParameters.sourceNames {
                v[try table.entry(for: "/led/source/\(name)").index] = wanted.contains(name) ? 1 : 0
            }
        }
        if let avOffset {
            let entry = try table.entry(for: "/led/offset")
            do { v[entry.index] = try entry.descriptor.checked(number: avOffset) } catch { throw ValidationError("--av-offset-ms: \(error)") }
        }
        return v
    }

    static let warning = """
        STROBE ARMED: the LED ports may now flash. Flashing light at 3-30 Hz can trigger seizures \
        in people with photosensitive epilepsy (about 1 in 4,000), some up to 60 Hz. Do not use it \
        with epilepsy or a family history of it, and stop at once on any discomfort. /panic blacks out.
        """
}
