import ArgumentParser
import EntrainControl
import EntrainFiles
import Foundation

/// `entrain manual --out DIR`: writes the man pages (what `make install` installs; `man/` holds
/// the committed copies, which a test keeps equal to what this writes).
struct ManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual",
        abstract: "Write entrain's man pages (entrain(1), one per subcommand, entrain-osc(7)) into a folder.",
        discussion: "The pages come from the argument parser and the OSC address space, so they always match this binary. Example: entrain manual --out man && man -l man/entrain-run.1")

    @Option(help: ArgumentHelp("Folder to write the pages into (created if missing).", valueName: "dir"))
    var out: String

    func run() throws {
        let folder = URL(fileURLWithPath: out)
        try Folder.create(folder, label: out)
        for page in try ManualPages.all(version: BuildInfo.version) {
            try AtomicFile.write(Data(page.text.utf8), to: folder.appendingPathComponent(page.name), label: "\(out)/\(page.name)")
        }
    }
}
