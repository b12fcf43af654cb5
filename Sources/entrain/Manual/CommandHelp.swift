import Foundation

/// What swift-argument-parser says about a command (its `--experimental-dump-help` JSON): the
/// parts a man page needs.
struct CommandHelp: Decodable {
    struct Name: Decodable {
        let kind: String
        let name: String
        var flag: String { kind == "long" ? "--\(name)" : kind == "short" ? "-\(name)" : "-\(name)" }
    }

    struct Argument: Decodable {
        let kind: String  // "positional", "option", "flag"
        let names: [Name]?
        let valueName: String?
        let abstract: String?
        let discussion: String?
        let defaultValue: String?
        let isOptional: Bool
        let isRepeating: Bool
        let shouldDisplay: Bool
    }

    let commandName: String
    let abstract: String?
    let discussion: String?
    let shouldDisplay: Bool?
    let arguments: [Argument]?
    let subcommands: [CommandHelp]?

    private struct Document: Decodable { let command: CommandHelp }

    /// The running binary's own description of itself.
    static func ofThisProgram() throws -> CommandHelp {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["--experimental-dump-help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Document.self, from: data).command
    }
}
