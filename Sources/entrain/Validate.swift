import ArgumentParser
import EntrainControl
import EntrainEngine
import EntrainFiles
import Foundation
import Kessho

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sessions, presets, playlists, Kessho presets, haptic patterns (AHAP) and imports (.sbg, .gnaural), each told by its content; report every problem as file:line:column.")

    @Argument(help: "Session, preset, playlist or Kessho preset files (JSON), AHAP patterns, SBaGen or Gnaural files.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let (what, warnings) = try Self.check(file, as: ValidateKind.of(file))
                for warning in warnings { StandardError.write("\(warning)\n") }
                print("\(file): ok — \(what)")
            } catch let error as SessionLoadError {
                StandardError.write("\(error)\n")
                failed = true
            } catch let error as AHAPLoadError {
                StandardError.write("\(error)\n")
                failed = true
            } catch {
                let reason = if case KesshoPresetError.unreadable(let problem) = error { problem.reason } else { "\(error)" }
                StandardError.write("\(file): error: \(reason)\n")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Read `file` as `kind` with the program's own reader: what it is, and its warnings.
    static func check(_ file: String, as kind: ValidateKind) throws -> (String, [String]) {
        let url = URL(fileURLWithPath: file)
        switch kind {
        case .preset:
            _ = try Presets.decode(try DocumentFile.text(url), file: file, over: Engine.parameterTable.defaults)
            return ("preset", [])
        case .playlist:
            let items = try Playlists.items(try DocumentFile.text(url), file: file)
            return ("playlist, \(counted(items.count, "item"))", [])
        case .pattern:
            let (pattern, warnings) = try HapticPattern.load(contentsOf: url)
            return ("haptic pattern (AHAP), \(String(format: "%.1f", pattern.duration)) s", warnings)
        case .kessho:
            let result = try KesshoPresetLoader.load(contentsOf: url)
            return ("Kessho preset \"\(result.preset.name)\"", result.warnings.map { "\(file): warning: \($0)" })
        case .session(let format):
            let (session, warnings) = try SessionFiles.load(url, as: format)
            let source = format == .gnaural ? " (Gnaural)" : format == .sbg ? " (SBaGen)" : ""
            return ("\"\(session.name)\"\(source), \(counted(session.stages.count, "stage")), \(Run.clock(session.duration))",
                    warnings.map { "\($0)" })
        }
    }
}
