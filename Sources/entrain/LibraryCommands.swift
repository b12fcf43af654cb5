import ArgumentParser
import EntrainControl
import EntrainEngine
import Foundation

/// `entrain preset …`: manage presets in $XDG_DATA_HOME/entrain/presets.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset", abstract: "List, show, save, rename and delete presets.",
        subcommands: [List.self, Show.self, Save.self, Rename.self, Delete.self])

    struct List: ParsableCommand {
        func run() { Library().presets.store.names().forEach { print($0) } }
    }

    struct Show: ParsableCommand {
        @Argument var name: String
        func run() throws { print(try Library().presets.store.read(name).text, terminator: "") }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save the given parameter options (over the defaults) as a preset.")
        @Argument var name: String
        @OptionGroup var engine: EngineOptions
        func run() throws {
            try Library().presets.save(name, values: try engine.parameterValues())
            print("saved preset '\(name)'")
        }
    }

    struct Rename: ParsableCommand {
        @Argument var old: String
        @Argument var new: String
        func run() throws { try Library().presets.store.rename(old, to: new) }
    }

    struct Delete: ParsableCommand {
        @Argument var name: String
        func run() throws { try Library().presets.store.delete(name) }
    }
}

/// `entrain playlist …`: manage playlists in $XDG_DATA_HOME/entrain/playlists.
struct PlaylistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist", abstract: "Create and edit playlists of presets and sessions.",
        subcommands: [List.self, Show.self, Create.self, Add.self, Remove.self, Move.self, Rename.self, Delete.self])

    struct List: ParsableCommand {
        func run() { Library().playlists.store.names().forEach { print($0) } }
    }

    struct Show: ParsableCommand {
        @Argument var name: String
        func run() throws {
            for (i, item) in try Library().playlists.items(name).enumerated() {
                print("\(i + 1). \(item.kind.rawValue) \(item.name)" + (item.duration.map { " for \(ParameterSpecFormat.seconds($0))" } ?? ""))
            }
        }
    }

    struct Create: ParsableCommand {
        @Argument var name: String
        func run() throws { try Library().playlists.create(name) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Append a preset (with --minutes) or a session.")
        @Argument var playlist: String
        @Argument(help: "preset or session") var kind: String
        @Argument var item: String
        @Option(help: "How long a preset plays.") var minutes: Double?
        func run() throws {
            guard let kind = Playlists.Item.Kind(rawValue: kind) else { throw ValidationError("kind must be preset or session") }
            if kind == .preset { guard let minutes, minutes > 0 else { throw ValidationError("a preset needs --minutes > 0") } }
            try Library().playlists.add(Playlists.Item(kind: kind, name: item, duration: minutes.map { $0 * 60 }), to: playlist)
        }
    }

    struct Remove: ParsableCommand {
        @Argument var playlist: String
        @Argument(help: "Item number, from 1.") var index: Int
        func run() throws { try Library().playlists.remove(index, from: playlist) }
    }

    struct Move: ParsableCommand {
        @Argument var playlist: String
        @Argument var from: Int
        @Argument var to: Int
        func run() throws { try Library().playlists.move(from, to: to, in: playlist) }
    }

    struct Rename: ParsableCommand {
        @Argument var old: String
        @Argument var new: String
        func run() throws { try Library().playlists.store.rename(old, to: new) }
    }

    struct Delete: ParsableCommand {
        @Argument var name: String
        func run() throws { try Library().playlists.store.delete(name) }
    }
}

enum ParameterSpecFormat {
    static func seconds(_ s: Double) -> String { s >= 60 ? String(format: "%.1f min", s / 60) : String(format: "%.0f s", s) }
}
