import ArgumentParser
import EntrainAddressSpace
import EntrainAmbient
import EntrainControl
import EntrainDSP
import EntrainEngine
import EntrainFiles
import Foundation
import Kessho

/// `--ambient-preset` and friends, for run and render: the Kessho preset the ambient engine
/// plays, the seed of its otherwise-unseeded randomness, and the reverb's structure.
struct AmbientOptions: ParsableArguments {
    @Option(name: .customLong("ambient-preset"), help: ArgumentHelp("Play this Kessho preset (the web app's JSON) on ambient_L/R: a path, or the name of a shipped or saved preset (e.g. Tidal_Glass).", valueName: "file|name"))
    var presetArgument: String?

    /// The preset file: the path given, or the preset of that name in ./presets/ambient, the
    /// user's or the installed ambient folder.
    var presetPath: String? {
        guard let presetArgument else { return nil }
        return (try? Self.finder.resolve(presetArgument))?.path ?? presetArgument
    }

    static var finder: FileByName {
        FileByName(kind: "ambient preset", folders: AmbientPresets.standardDirectories(), extensions: ["json"])
    }
    @Option(help: "Seed for what the web leaves to Math.random (filter walk, grain noise, ocean); same seed, same audio.")
    var seed: UInt64 = 0
    @Option(name: .customLong("ambient-quality"), help: "Ambient reverb structure: lite (4 lines), balanced (8 lines) or ultra (longer diffusers). Default: balanced, as the web app; presets never set it.")
    var quality: String?

    func validate() throws {
        if let quality, !["lite", "balanced", "ultra"].contains(quality) {
            throw ValidationError("--ambient-quality must be lite, balanced or ultra, got '\(quality)'")
        }
        // Before anything starts (a JACK client opens before the preset is read).
        if let presetArgument {
            do {
                try DocumentFile.check(try Self.finder.resolve(presetArgument), label: presetArgument)
            } catch { throw ValidationError("--ambient-preset \(error)") }
        }
    }

    var reverbQuality: FDNReverb.Quality { AmbientSettings.quality(quality) }

    /// What the ambient engine starts from: the `--ambient-preset` file, or else the web's
    /// defaults with `carried` over them (the last-used settings, an entrain preset); then
    /// `changes` (`--set /ambient/…`), the Kessho keys into the preset's state and the
    /// conductor's own settings apart, typed, in that order. It plays from the start when a
    /// file or changes were given; otherwise it waits for OSC or a session stage.
    func start(carrying carried: [ControlChange] = [],
               changes: [ControlChange]) throws -> (preset: KesshoPreset, settings: [ConductorSetting], plays: Bool) {
        let file = try preset()
        var start = file ?? KesshoPreset(name: changes.isEmpty ? "defaults" : "command line")
        var (settings, problems) = AmbientFamily.takeSettings(from: &start.state)
        for problem in problems { StandardError.write("\(presetArgument ?? "ambient preset"): warning: \(problem)\n") }
        let given = (file == nil ? carried : []) + changes
        for (key, value) in AmbientFamily.keyed(given) { start.state[key] = value }
        settings += AmbientFamily.settings(given)
        return (start, settings, file != nil || !changes.isEmpty)
    }

    /// The preset, with its loader warnings on stderr; nil without --ambient-preset.
    func preset() throws -> KesshoPreset? {
        guard let presetPath, let presetArgument else { return nil }
        do {
            let result = try KesshoPresetLoader.load(contentsOf: URL(fileURLWithPath: presetPath), label: presetArgument)
            for warning in result.warnings { StandardError.write("\(presetArgument): warning: \(warning)\n") }
            return result.preset
        } catch KesshoPresetError.unreadable(let problem) {
            throw ValidationError("--ambient-preset \(problem)")
        } catch {
            throw ValidationError("\(presetArgument): \(error)")
        }
    }
}
