import ArgumentParser
import EntrainAddressSpace
import EntrainControl
import EntrainDiscovery
import Foundation

/// `entrain layout open-stage-control -o FILE`: a controller layout made from the address space.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Write a ready-made controller layout for every address (Open Stage Control's session format).",
        discussion: """
            A tab per family group with a fader, toggle or menu per value (its range and unit), \
            a panic button on every tab and the session transport; feedback needs no setup (the \
            session subscribes itself). layouts/ holds a generated copy. Example: \
            entrain layout open-stage-control -o entrain.json, then open it in Open Stage Control \
            with its OSC target set to the client (127.0.0.1:8000).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case openStageControl = "open-stage-control"
        case touchosc
    }

    @Argument(help: "open-stage-control (touchosc is not generated yet).")
    var format: Format
    @Option(name: [.short, .customLong("output")], help: "The file to write (atomically).")
    var output: String

    func run() throws {
        switch format {
        case .touchosc:
            throw ValidationError("touchosc layouts are not generated yet: use open-stage-control, or the control page (entrain run, then http://127.0.0.1:8000/ui/)")
        case .openStageControl:
            let space = AddressSpace(try OSCSchema.standardFamilies())
            try AtomicFile.write(OpenStageControlLayout.data(space: space) + Data("\n".utf8), to: URL(fileURLWithPath: output), label: output)
        }
    }
}
