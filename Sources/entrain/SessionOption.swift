import ArgumentParser
import EntrainControl
import EntrainCore
import EntrainFiles
import Foundation

/// `--session FILE` for run and render: load, report warnings, compile for a sample rate.
struct SessionOption: ParsableArguments {
    @Option(name: .customLong("session"), help: ArgumentHelp("Play a session program (JSON, see sessions/README.md) an SBaGen file (.sbg) or a Gnaural schedule (.gnaural).", valueName: "file"))
    var path: String?

    /// Before anything starts (a JACK client opens before the session is read).
    func validate() throws {
        if let path {
            do { try DocumentFile.check(URL(fileURLWithPath: path)) } catch { throw ValidationError("--session \(error)") }
        }
    }

    /// The compiled program, or nil without --session. Problems are printed as file:line:column.
    func program(sampleRate: Double) throws -> SessionProgram? {
        guard let path else { return nil }
        return SessionProgram(try Self.load(path), sampleRate: sampleRate)
    }

    /// A session or import for a command: warnings to stderr, problems as a usage error.
    static func load(_ path: String) throws -> Session {
        do {
            let (session, warnings) = try SessionFiles.load(URL(fileURLWithPath: path))
            for warning in warnings { StandardError.write("\(warning)\n") }
            return session
        } catch let error as SessionLoadError {
            throw ValidationError("\(error)")
        }
    }
}
