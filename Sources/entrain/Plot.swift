import ArgumentParser
import EntrainControl
import Foundation

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a session or import (beat over the bands, carrier, levels against time) as SVG.")

    @Argument(help: "A session (.json), SBaGen (.sbg) or Gnaural (.gnaural) file.")
    var file: String
    @Option(name: .shortAndLong, help: "The SVG file to write (atomically).")
    var output: String

    func run() throws {
        let svg = SessionPlot.svg(SessionProgram(try SessionOption.load(file), sampleRate: 1000))
        try AtomicFile.write(Data(svg.utf8), to: URL(fileURLWithPath: output))
        print("wrote \(output)")
    }
}
