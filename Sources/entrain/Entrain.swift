import ArgumentParser
import Foundation

@main
struct Entrain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrain",
        abstract: "Real-time entrainment, light and haptics for JACK, controlled over OSC.",
        discussion: """
            Start with `entrain run` against a running JACK server, or render offline with \
            `entrain render --duration 60 --out session.wav`.
            """,
        version: BuildInfo.versionLine,
        subcommands: [Run.self, Render.self, Analyse.self, BeatEval.self, Validate.self, Import.self, Plot.self, PresetCommand.self, PlaylistCommand.self, Bench.self, OSCLoad.self,
                      OSCSchemaCommand.self, Ctl.self, LayoutCommand.self, ManualCommand.self, HRVCommand.self, LV2Command.self])
}

extension Entrain {
    /// As ArgumentParser's own main, except that a usage error found while a subcommand runs
    /// (a file named on its command line that turns out unreadable) shows that subcommand's
    /// usage, not the top-level one.
    static func main() {
        var command: ParsableCommand
        do { command = try parseAsRoot() } catch { exit(withError: error) }
        do {
            try command.run()
        } catch let error as ValidationError {
            let name = commandPath(to: type(of: command)).map { " " + $0 }.joined()
            StandardError.write("Error: \(error.message)\nUsage: \(usageString(for: type(of: command)))\n"
                                + "  See 'entrain\(name) --help' for more information.\n")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// The subcommand names leading to `target` ("hrv", "replay"), for its usage line.
    static func commandPath(to target: ParsableCommand.Type, from start: ParsableCommand.Type = Entrain.self) -> [String] {
        for sub in start.configuration.subcommands {
            if sub == target { return [sub._commandName] }
            let deeper = commandPath(to: target, from: sub)
            if !deeper.isEmpty { return [sub._commandName] + deeper }
        }
        return []
    }
}
