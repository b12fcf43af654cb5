import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// Playlists: ordered presets (each for a duration) and sessions. A playlist plays as one
/// session program: each preset becomes a stage that crossfades to its values, each session
/// contributes its stages (its first one crossfading in), so the transport plays it and reports
/// progress like any session.
public struct Playlists: Sendable {
    public static let format = "entrain-playlist/1"

    public struct Item: Equatable, Sendable {
        public enum Kind: String, Sendable { case preset, session }
        public var kind: Kind
        public var name: String
        /// Seconds (presets only; a session lasts as long as it does).
        public var duration: Double?
        public var fade: Double

        public init(kind: Kind, name: String, duration: Double? = nil, fade: Double = 5) {
            self.kind = kind
            self.name = name
            self.duration = duration
            self.fade = fade
        }
    }

    public let store: NamedStore

    public init(dataDirectory: URL = NamedStore.dataDirectory()) {
        store = NamedStore(kind: "playlist", folder: dataDirectory.appendingPathComponent("playlists"))
    }

    public func items(_ name: String) throws -> [Item] {
        try Self.items(try store.read(name).text, file: store.label(name))
    }

    /// A playlist document's items, checked (not whether the presets and sessions they name exist).
    public static func items(_ text: String, file: String) throws -> [Item] {
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let e as JSONSyntaxError { throw LibraryError.badFile(file, "\(e.line):\(e.column): \(e.message)") }
        guard let list = root["items"], case .array(let nodes) = list.value else { throw LibraryError.badFile(file, "expected {\"items\": [...]}") }
        return try nodes.map { node in
            func bad(_ why: String) -> LibraryError { .badFile(file, "\(node.line):\(node.column): \(why)") }
            var fade = 5.0
            if let f = node["fade"] {
                guard case .number(let seconds) = f.value, seconds >= 0, seconds <= Session.maximumStageSeconds else {
                    throw LibraryError.badFile(file, "\(f.line):\(f.column): \"fade\" must be a number of seconds from 0 to a week")
                }
                fade = seconds
            }
            if case .string(let preset)? = node["preset"]?.value {
                guard case .number(let seconds)? = node["duration"]?.value, seconds > 0, seconds <= Session.maximumStageSeconds else {
                    throw bad("a preset item needs \"duration\": more than 0 and at most a week (604800 seconds)")
                }
                return Item(kind: .preset, name: preset, duration: seconds, fade: min(fade, seconds))
            }
            if case .string(let session)? = node["session"]?.value { return Item(kind: .session, name: session, fade: fade) }
            throw bad("an item is {\"preset\": name, \"duration\": seconds} or {\"session\": name}")
        }
    }

    public func save(_ name: String, _ items: [Item]) throws {
        let lines = items.map { item -> String in
            switch item.kind {
            case .preset: "    { \"preset\": \"\(item.name)\", \"duration\": \(ControlDescriptor.format(item.duration ?? 0)), \"fade\": \(ControlDescriptor.format(item.fade)) }"
            case .session: "    { \"session\": \"\(item.name)\", \"fade\": \(ControlDescriptor.format(item.fade)) }"
            }
        }
        try store.write(name, "{\n  \"format\": \"\(Self.format)\",\n  \"name\": \"\(name)\",\n  \"items\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n")
    }

    public func create(_ name: String) throws {
        guard !store.exists(name) else { throw LibraryError.exists("playlist", name) }
        try save(name, [])
    }

    public func add(_ item: Item, to name: String) throws {
        try NamedStore.check(item.name)
        if let seconds = item.duration, !(seconds > 0 && seconds <= Session.maximumStageSeconds) {
            throw LibraryError.badFile(store.label(name), "a preset plays for more than 0 and at most a week (604800 seconds)")
        }
        guard item.fade >= 0, item.fade <= Session.maximumStageSeconds else {
            throw LibraryError.badFile(store.label(name), "a fade lasts from 0 to a week")
        }
        try save(name, try items(name) + [item])
    }

    /// Remove item `index` (from 1).
    public func remove(_ index: Int, from name: String) throws {
        var list = try items(name)
        guard (1...max(1, list.count)).contains(index), !list.isEmpty else { throw LibraryError.badIndex(index, list.count) }
        list.remove(at: index - 1)
        try save(name, list)
    }

    /// Move item `from` to position `to` (both from 1).
    public func move(_ from: Int, to: Int, in name: String) throws {
        var list = try items(name)
        guard (1...max(1, list.count)).contains(from), !list.isEmpty else { throw LibraryError.badIndex(from, list.count) }
        guard (1...list.count).contains(to) else { throw LibraryError.badIndex(to, list.count) }
        list.insert(list.remove(at: from - 1), at: to - 1)
        try save(name, list)
    }

    /// The playlist as one session.
    public func session(_ name: String, presets: Presets, session load: (String) throws -> Session) throws -> Session {
        let list = try items(name)
        guard !list.isEmpty else { throw LibraryError.badFile(name, "the playlist is empty") }
        let table = Engine.parameterTable
        var stages: [Session.Stage] = []
        for item in list {
            switch item.kind {
            case .preset:
                // Every family's values but the master section (fades and ceiling belong to the
                // run) and the MIDI bindings (the performer's, not a step's): the engine's over
                // the defaults, the others as the stage's "set" block.
                let loaded = try presets.changes(item.name).filter { Presets.appliesOnLoad($0.address) && !$0.address.hasPrefix(MIDIFamily.prefix) }
                let values = try EngineFamily.fold(loaded, into: table.defaults)
                let changes = table.entries.filter { Presets.appliesOnLoad($0.descriptor.address) && !StandardAddresses.isTransient($0.descriptor.address) }
                    .map { ($0.descriptor.address, values[$0.index]) }
                stages.append(Session.Stage(name: item.name, duration: item.duration ?? 0, transition: .crossfade,
                                            fade: item.fade, changes: changes, pluginBlocks: [],
                                            sets: loaded.filter { !EngineFamily.owns($0.address) }))
            case .session:
                var sessionStages = try load(item.name).stages
                if !sessionStages.isEmpty, sessionStages[0].transition == .hold {
                    sessionStages[0].transition = .crossfade
                    sessionStages[0].fade = min(item.fade, sessionStages[0].duration)
                }
                stages += sessionStages
            }
        }
        return Session(name: name, description: "playlist", stages: stages)
    }
}
