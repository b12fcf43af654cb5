import ArgumentParser
import EntrainControl
import EntrainEngine
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sessions, presets and imports (.json, .sbg, .gnaural); report every problem as file:line:column.")

    @Argument(help: "Session files (JSON).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            if Self.isPreset(file) {
                do {
                    _ = try Presets.decode(try String(contentsOfFile: file, encoding: .utf8), file: file, over: Engine.parameterTable.defaults)
                    print("\(file): ok — preset")
                } catch {
                    print("\(file): error: \(error)")
                    failed = true
                }
                continue
            }
            do {
                let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: file))
                for warning in warnings { print(warning) }
                print("\(file): ok — \"\(session.name)\", \(session.stages.count) stages, \(Run.clock(session.duration))")
            } catch let error as SessionLoadError {
                print(error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Presets say so in their "format" (or hold "values" and no "stages").
    static func isPreset(_ file: String) -> Bool {
        guard file.hasSuffix(".json"), let text = try? String(contentsOfFile: file, encoding: .utf8),
              let root = try? JSONDocument.parse(text) else { return false }
        if case .string(let format)? = root["format"]?.value { return format == Presets.format }
        return root["values"] != nil && root["stages"] == nil
    }
}
