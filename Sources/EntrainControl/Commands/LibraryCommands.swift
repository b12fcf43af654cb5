import EntrainAddressSpace
import EntrainCore

/// Presets and playlists: the commands over the library, declared with their handlers.
public struct LibraryCommands: Sendable {
    let library: Library
    /// Where presets are saved from and loaded into.
    let space: AddressSpace
    /// What plays a playlist (nil: /playlist/play is refused).
    let transport: SessionTransport?

    public init(library: Library, space: AddressSpace, transport: SessionTransport?) {
        self.library = library
        self.space = space
        self.transport = transport
    }

    static let names = "Names: 1–64 letters, digits, spaces, `- _ . ( )`"

    public static let declarations: [CommandDeclaration<LibraryCommands>] = [
        .init(CommandDescriptor("/preset/save", [.required("s", "name")], """
            save every parameter's current value as a preset (`$XDG_DATA_HOME/entrain/presets/NAME.json`, written atomically). \(names)
            """)) { c, call in
            try c.library.presets.save(try call.text(0), entries: c.space.presetSnapshot())
            return []
        },
        .init(CommandDescriptor("/preset/load", [.required("s", "name", from: .presets), .optional("f", "glide")], readsFiles: true,
                                "glide every parameter but the master section to the preset over `glide` seconds (default 2)")) { c, call in
            try c.load(try call.text(0), glide: call.arguments.count > 1 ? try call.number(1) : 2)
            return []
        },
        .init(CommandDescriptor("/preset/rename", [.required("s", "old", from: .presets), .required("s", "new")], "rename (refused if `new` exists)")) { c, call in
            try c.library.presets.store.rename(try call.text(0), to: try call.text(1))
            return []
        },
        .init(CommandDescriptor("/preset/delete", [.required("s", "name", from: .presets)], "delete")) { c, call in
            try c.library.presets.store.delete(try call.text(0))
            return []
        },
        .init(CommandDescriptor("/preset/list", answersOnly: true, reply: "`/preset/list s…`", "the presets")) { c, _ in
            [.reply(OSCMessage("/preset/list", c.library.presets.store.names().map { .string($0) }))]
        },
        .init(CommandDescriptor("/playlist/create", [.required("s", "name")], "a new, empty playlist")) { c, call in
            try c.library.playlists.create(try call.text(0))
            return []
        },
        .init(CommandDescriptor("/playlist/add", [.required("s", "playlist", from: .playlists), .required("s", "kind"), .required("s", "item"), .optional("f", "seconds")],
                                "append `preset` NAME for `seconds`, or `session` NAME")) { c, call in
            guard let kind = Playlists.Item.Kind(rawValue: try call.text(1)) else {
                throw ControlError(call.address, "argument 2 must be preset or session")
            }
            let duration = kind == .preset ? try call.number(3) : nil
            if let duration, duration <= 0 { throw ControlError(call.address, "the duration must be > 0 seconds") }
            try c.library.playlists.add(Playlists.Item(kind: kind, name: try call.text(2), duration: duration), to: try call.text(0))
            return []
        },
        .init(CommandDescriptor("/playlist/remove", [.required("s", "playlist", from: .playlists), .required("i", "item")], "remove item (from 1)")) { c, call in
            try c.library.playlists.remove(Int(try call.number(1)), from: try call.text(0))
            return []
        },
        .init(CommandDescriptor("/playlist/move", [.required("s", "playlist", from: .playlists), .required("i", "from"), .required("i", "to")], "reorder")) { c, call in
            try c.library.playlists.move(Int(try call.number(1)), to: Int(try call.number(2)), in: try call.text(0))
            return []
        },
        .init(CommandDescriptor("/playlist/rename", [.required("s", "old", from: .playlists), .required("s", "new")], "rename (refused if `new` exists)")) { c, call in
            try c.library.playlists.store.rename(try call.text(0), to: try call.text(1))
            return []
        },
        .init(CommandDescriptor("/playlist/delete", [.required("s", "name", from: .playlists)], "delete")) { c, call in
            try c.library.playlists.store.delete(try call.text(0))
            return []
        },
        .init(CommandDescriptor("/playlist/list", answersOnly: true, reply: "`/playlist/list s…`", "the playlists")) { c, _ in
            [.reply(OSCMessage("/playlist/list", c.library.playlists.store.names().map { .string($0) }))]
        },
        .init(CommandDescriptor("/playlist/show", [.required("s", "name", from: .playlists)], answersOnly: true, reply: "`/playlist/show s:name` then `s:kind s:item f:seconds` per item",
                                "its items")) { c, call in
            let name = try call.text(0)
            let items = try c.library.playlists.items(name)
            return [.reply(OSCMessage("/playlist/show", [.string(name)] + items.flatMap { item -> [OSCValue] in
                [.string(item.kind.rawValue), .string(item.name), .float(Float(item.duration ?? 0))]
            }))]
        },
        .init(CommandDescriptor("/playlist/play", [.required("s", "name", from: .playlists)], readsFiles: true, """
            play it as one session: presets crossfade in (5 s) and hold for their time, sessions follow with their own stages; \
            progress as for sessions
            """)) { c, call in
            guard let transport = c.transport else { throw ControlError(call.address, "sessions are not available here") }
            try transport.loadPlaylist(try call.text(0), from: c.library)
            try transport.play()
            return []
        },
    ]

    /// Glide every family of this client to preset `name` (a preset may name a plugin that is not
    /// loaded: skipped). Its MIDI bindings are added to the ones in force, never put in their
    /// place: a pad that loads a preset must not be unbound by the preset it loads.
    func load(_ name: String, glide: Double) throws {
        let loaded = try library.presets.changes(name)
        guard glide >= 0 else { throw ControlError("/preset/load", "the glide time must be ≥ 0") }
        try space.set(loaded.filter { Presets.appliesOnLoad($0.address) && space.lookup($0.address) != nil }
            .map { MIDIFamily.addingBindings(ControlChange($0.address, $0.value, glide: glide), to: try? space.value(of: $0.address)) },
                      from: .file)
    }

    var commands: [DeclaredCommand] { Self.declarations.map { $0.bound(to: self) } }
}
