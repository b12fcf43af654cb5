import ArgumentParser

@main
struct Entrain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrain",
        abstract: "Real-time entrainment, light and haptics for JACK, controlled over OSC.",
        discussion: """
            Start with `entrain run` against a running JACK server, or render offline with \
            `entrain render --duration 60 --out session.wav`.
            """,
        version: "0.1.0",
        subcommands: [Run.self, Render.self, Analyse.self, BeatEval.self, Validate.self, Import.self, Plot.self, PresetCommand.self, PlaylistCommand.self, Bench.self, OSCLoad.self,
                      OSCSchemaCommand.self, HRVCommand.self])
}
