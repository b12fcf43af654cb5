import ArgumentParser
import EntrainControl
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a Gnaural schedule (.gnaural) into an entrain session (JSON).")

    @Argument(help: "The file to import.")
    var file: String
    @Option(name: .shortAndLong, help: "The session file to write (atomically).")
    var output: String

    func run() throws {
        do {
            let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: file))
            for warning in warnings { FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
            try AtomicFile.write(Data(SessionEncoder.json(session).utf8), to: URL(fileURLWithPath: output))
            print("wrote \(output): \"\(session.name)\", \(session.stages.count) stages, \(Run.clock(session.duration))")
        } catch let error as SessionLoadError {
            throw ValidationError("\(error)")
        }
    }
}
