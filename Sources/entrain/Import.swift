import ArgumentParser
import EntrainControl
import EntrainFiles
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
        let json = Data(SessionEncoder.json(session).utf8)
        try AtomicFile.write(json, to: URL(fileURLWithPath: output))
        print("wrote \(output): \"\(session.name)\", \(counted(session.stages.count, "stage")), \(Run.clock(session.duration))")
        if json.count > InputLimits.documentBytes {
            let size = String(format: "%.1f MiB", Double(json.count) / 1_048_576)
            StandardError.write("warning: \(output) is \(size); entrain reads files of at most \(InputLimits.documentBytesText): play \(file) itself with --session\n")
        }
    }
}
