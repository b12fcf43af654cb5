import ArgumentParser
import EntrainAmbient
import EntrainDSP
import EntrainEngine
import EntrainFiles
import Foundation
import Kessho

/// `--ambient-preset` and friends, for run and render: the Kessho preset the ambient engine
/// plays, the seed of its otherwise-unseeded randomness, and the reverb's structure.
struct AmbientOptions: ParsableArguments {
    @Option(name: .customLong("ambient-preset"), help: ArgumentHelp("Play this Kessho preset (the web app's JSON) on ambient_L/R.", valueName: "file"))
    var presetPath: String?
    @Option(help: "Seed for what the web leaves to Math.random (filter walk, grain noise, ocean); same seed, same audio.")
    var seed: UInt64 = 0
    @Option(name: .customLong("ambient-quality"), help: "Ambient reverb structure: lite (4 lines), balanced (8 lines) or ultra (longer diffusers). Default: balanced, as the web app; presets never set it.")
    var quality: String?

    func validate() throws {
        if let quality, !["lite", "balanced", "ultra"].contains(quality) {
            throw ValidationError("--ambient-quality must be lite, balanced or ultra, got '\(quality)'")
        }
        // Before anything starts (a JACK client opens before the preset is read).
        if let presetPath {
            do { try DocumentFile.check(URL(fileURLWithPath: presetPath)) } catch { throw ValidationError("--ambient-preset \(error)") }
        }
    }

    var reverbQuality: FDNReverb.Quality { AmbientSettings.quality(quality) }

    /// The preset with `--set /ambient/…` changes applied: the file's (or, with changes only, the
    /// web's defaults); nil when neither is given, and the ambient engine then waits for OSC.
    func preset(with changes: [(key: String, value: KesshoValue)]) throws -> KesshoPreset? {
        guard var preset = try preset() ?? (changes.isEmpty ? nil : KesshoPreset(name: "command line")) else { return nil }
        for change in changes { preset.state[change.key] = change.value }
        return preset
    }

    /// The preset, with its loader warnings on stderr; nil without --ambient-preset.
    func preset() throws -> KesshoPreset? {
        guard let presetPath else { return nil }
        do {
            let result = try KesshoPresetLoader.load(contentsOf: URL(fileURLWithPath: presetPath))
            for warning in result.warnings { StandardError.write("\(presetPath): warning: \(warning)\n") }
            return result.preset
        } catch KesshoPresetError.unreadable(let problem) {
            throw ValidationError("--ambient-preset \(problem)")
        } catch {
            throw ValidationError("\(presetPath): \(error)")
        }
    }
}
