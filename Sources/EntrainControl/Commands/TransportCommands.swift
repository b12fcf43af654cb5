import EntrainAddressSpace
import EntrainCore

/// The session transport's and the timer's commands, declared with their handlers.
extension SessionTransport {
    public static let declarations: [CommandDeclaration<SessionTransport>] = [
        .init(CommandDescriptor("/session/load", [.required("s", "name", from: .sessions)], readsFiles: true,
                                reply: "— (`/error` if refused or invalid, with the file's problems)", """
            load a session from the session directories (`--sessions-dir`, default `./sessions`, then \
            `$XDG_DATA_HOME/entrain/sessions`, `$XDG_DATA_DIRS` and the installed `PREFIX/share/entrain/sessions`) by name, \
            with or without `.json`; paths outside them (absolute, `..`, links leading out) are refused
            """)) { transport, call in
            guard call.arguments.count == 1, let name = call.arguments[0].text else { throw CommandError("expects one string: a session name") }
            try transport.load(name)
            return []
        },
        .init(CommandDescriptor("/session/play", trigger: .button,
                                "start the loaded session, or resume it where it was paused; fades back in if the output was stopped")) { transport, _ in
            try transport.play()
            return []
        },
        .init(CommandDescriptor("/session/pause", trigger: .button, "freeze: every parameter settles (50 ms) on its value at this moment")) { transport, _ in
            try transport.pause()
            return []
        },
        .init(CommandDescriptor("/session/stop", trigger: .button,
                                "end the session with a fade-out (`/master/fade-out`); the client stays up, silent")) { transport, _ in
            try transport.stop()
            return []
        },
        .init(CommandDescriptor("/session/restart", trigger: .button,
                                "play the loaded session again from its beginning (a foot switch's \"from the top\")")) { transport, _ in
            try transport.seek(0)
            try transport.play()
            return []
        },
        .init(CommandDescriptor("/session/seek", [.required("f", "seconds")],
                                "go to that point of the session: its state there within 50 ms, slides under way continue")) { transport, call in
            try transport.seek(try call.oneNumber())
            return []
        },
        .init(CommandDescriptor("/session/status", answersOnly: true, reply: "the messages listed under \"Sent by entrain\" for sessions and the timer",
                                "the transport's state")) { transport, _ in
            transport.report().map(OSCRouter.Action.reply)
        },
        .init(CommandDescriptor("/timer/minutes", [.optional("f", "minutes")], reply: "query: `/timer/remaining`",
                                "stop with a fade so that the fade ends after that many minutes (0 < minutes ≤ 1440); no argument: a query")) { transport, call in
            if call.arguments.isEmpty { return transport.report().filter { $0.address == "/timer/remaining" }.map(OSCRouter.Action.reply) }
            try transport.setTimer(minutes: try call.oneNumber())
            return []
        },
        .init(CommandDescriptor("/timer/cancel", trigger: .button, "cancel the timer")) { transport, _ in
            transport.cancelTimer()
            return []
        },
    ]
}

extension CommandCall {
    /// The one finite number a command takes.
    func oneNumber() throws -> Double {
        guard arguments.count == 1, let n = arguments[0].number, n.isFinite else { throw ControlError(address, "expects one number") }
        return n
    }

    /// Argument `i` (from 0) as a string.
    func text(_ i: Int) throws -> String {
        guard arguments.indices.contains(i), let t = arguments[i].text else { throw ControlError(address, "argument \(i + 1) must be a string") }
        return t
    }

    /// Argument `i` as a number; bounded, since these become Ints (positions, minutes) and Int(1e30) would trap.
    func number(_ i: Int) throws -> Double {
        guard arguments.indices.contains(i), let n = arguments[i].number, n.isFinite, abs(n) < 1e9 else {
            throw ControlError(address, "argument \(i + 1) must be a number below 1e9")
        }
        return n
    }
}
