import ArgumentParser
import EntrainControl
import Foundation

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a session or import (beat over the bands, carrier, levels against time) as SVG.")

    @Argument(help: "A session (.json) or Gnaural schedule (.gnaural).")
    var file: String
    @Option(name: .shortAndLong, help: "The SVG file to write (atomically).")
    var output: String

    func run() throws {
        do {
            let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: file))
            for warning in warnings { FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
            let svg = SessionPlot.svg(SessionProgram(session, sampleRate: 1000))
            try AtomicFile.write(Data(svg.utf8), to: URL(fileURLWithPath: output))
            print("wrote \(output)")
        } catch let error as SessionLoadError {
            throw ValidationError("\(error)")
        }
    }
}
