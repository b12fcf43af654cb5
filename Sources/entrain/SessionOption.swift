import ArgumentParser
import EntrainControl
import EntrainCore
import Foundation

/// `--session FILE` for run and render: load, report warnings, compile for a sample rate.
struct SessionOption: ParsableArguments {
    @Option(name: .customLong("session"), help: ArgumentHelp("Play a session program (JSON, see sessions/README.md) or a Gnaural schedule (.gnaural).", valueName: "file"))
    var path: String?

    /// The compiled program, or nil without --session. Problems are printed as file:line:column.
    func program(sampleRate: Double) throws -> SessionProgram? {
        guard let path else { return nil }
        do {
            let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: path))
            for warning in warnings { FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
            return SessionProgram(session, sampleRate: sampleRate)
        } catch let error as SessionLoadError {
            throw ValidationError("\(error)")
        }
    }
}
