import ArgumentParser
import EntrainControl
import EntrainCore
import EntrainFiles
import Foundation

/// `--session FILE` for run and render: load, report warnings, compile for a sample rate.
struct SessionOption: ParsableArguments {
    @Option(name: .customLong("session"), help: ArgumentHelp("Play a session program (JSON, see sessions/README.md), an SBaGen file (.sbg) or a Gnaural schedule (.gnaural): a path, or the name of a shipped or saved session (e.g. theta-meditation).", valueName: "file|name"))
    var argument: String?

    /// The file: the path given, or the session of that name in ./sessions, the user's or the
    /// installed sessions folder.
    var path: String? {
        guard let argument else { return nil }
        return (try? Self.finder.resolve(argument))?.path ?? argument
    }

    static var finder: FileByName {
        FileByName(kind: "session", folders: DataDirectories().search("sessions", local: "sessions"), extensions: ["json", "sbg", "gnaural"])
    }

    /// Before anything starts (a JACK client opens before the session is read).
    func validate() throws {
        if let argument {
            do {
                try DocumentFile.check(try Self.finder.resolve(argument), label: argument)
            } catch { throw ValidationError("--session \(error)") }
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
