import ArgumentParser
import EntrainControl
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check session files and imports (.json, .gnaural); report every problem as file:line:column.")

    @Argument(help: "Session files (JSON).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
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
}
