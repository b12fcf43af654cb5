import ArgumentParser
import EntrainControl

struct OSCSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osc-schema",
        abstract: "Print the OSC address space as Markdown (the source of osc-schema.md).")

    func run() throws { print(OSCSchema.markdown(families: try OSCSchema.standardFamilies()), terminator: "") }
}
