import ArgumentParser
import EntrainControl
import EntrainEngine
import EntrainFiles
import Foundation
import Kessho

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sessions, presets, Kessho presets and imports (.json, .sbg, .gnaural); report every problem as file:line:column.")

    @Argument(help: "Session, preset or Kessho preset files (JSON), .sbg or .gnaural files.")
    var files: [String]

    enum Kind { case session, preset, kessho }

    func run() throws {
        var failed = false
        for file in files {
            switch Self.kind(of: file) {
            case .preset:
                do {
                    _ = try Presets.decode(try DocumentFile.text(URL(fileURLWithPath: file)), file: file, over: Engine.parameterTable.defaults)
                    print("\(file): ok — preset")
                } catch {
                    StandardError.write("\(file): error: \(error)\n")
                    failed = true
                }
            case .kessho:
                do {
                    let result = try KesshoPresetLoader.load(contentsOf: URL(fileURLWithPath: file))
                    for warning in result.warnings { StandardError.write("\(file): warning: \(warning)\n") }
                    print("\(file): ok — Kessho preset \"\(result.preset.name)\"")
                } catch {
                    let reason = if case KesshoPresetError.unreadable(let problem) = error { problem.reason } else { "\(error)" }
                    StandardError.write("\(file): error: \(reason)\n")
                    failed = true
                }
            case .session:
                do {
                    let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: file))
                    for warning in warnings { StandardError.write("\(warning)\n") }
                    print("\(file): ok — \"\(session.name)\", \(counted(session.stages.count, "stage")), \(Run.clock(session.duration))")
                } catch let error as SessionLoadError {
                    StandardError.write("\(error)\n")
                    failed = true
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// JSON files say what they are: presets by their "format" (or "values" and no "stages"),
    /// Kessho presets by a "state" object or Kessho keys at the top (the loader takes a bare
    /// state too). Anything else, and files that do not parse, are read as sessions.
    static func kind(of file: String) -> Kind {
        guard file.hasSuffix(".json"), let bytes = try? DocumentFile.bytes(URL(fileURLWithPath: file)),
              let root = try? KesshoJSONParser.parse(bytes).value, case .object(let members) = root,
              root["stages"] == nil else { return .session }
        if case .string(let format)? = root["format"] { return format == Presets.format ? .preset : .session }
        if root["values"] != nil { return .preset }
        if case .object? = root["state"] { return .kessho }
        return members.contains { KesshoParameters.parameter($0.key) != nil } ? .kessho : .session
    }
}
