import ArgumentParser
import EntrainControl
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert an SBaGen (.sbg) or Gnaural (.gnaural) file into an entrain session (JSON).")

    @Argument(help: "The file to import.")
    var file: String
    @Option(name: .shortAndLong, help: "The session file to write (atomically).")
    var output: String

    func run() throws {
        let session = try SessionOption.load(file)
        try AtomicFile.write(Data(SessionEncoder.json(session).utf8), to: URL(fileURLWithPath: output))
        print("wrote \(output): \"\(session.name)\", \(session.stages.count) stages, \(Run.clock(session.duration))")
    }
}
