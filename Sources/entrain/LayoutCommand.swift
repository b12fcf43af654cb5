import ArgumentParser
import EntrainAddressSpace
import EntrainControl
import EntrainDiscovery
import Foundation

/// `entrain layout open-stage-control|touchosc -o FILE`: a controller layout made from the address space.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Write a ready-made controller layout for every address (Open Stage Control or TouchOSC).",
        discussion: """
            open-stage-control: a tab per family group with a fader, toggle or menu per value (its \
            range and unit), a panic button on every tab and the session transport. touchosc: a \
            .tosc file with PANIC beside every page, a show page (commands, timer, volumes, \
            readouts) and pages per family; faders send ADDRESS/norm on the parameter's own curve. \
            Feedback needs no setup in either (the layout subscribes itself). layouts/ holds \
            generated copies. Example: entrain layout touchosc -o entrain.tosc, then open it in \
            TouchOSC with an OSC connection to the client (its address, port 8000, receive port \
            the one TouchOSC sends from). With --pixels FILE the rig's pixel outputs get controls too.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case openStageControl = "open-stage-control"
        case touchosc
    }

    @Argument(help: "open-stage-control or touchosc.")
    var format: Format
    @Option(name: [.short, .customLong("output")], help: "The file to write (atomically).")
    var output: String
    @OptionGroup var pixels: PixelOptions

    func run() throws {
        switch format {
        case .touchosc:
            let space = AddressSpace(try OSCSchema.standardFamilies() + pixels.families().map { $0 as any AddressFamily })
            try AtomicFile.write(TouchOSCLayout.data(space: space), to: URL(fileURLWithPath: output), label: output)
        case .openStageControl:
            let space = AddressSpace(try OSCSchema.standardFamilies() + pixels.families().map { $0 as any AddressFamily })
            try AtomicFile.write(OpenStageControlLayout.data(space: space) + Data("\n".utf8), to: URL(fileURLWithPath: output), label: output)
        }
    }
}
