import EntrainAddressSpace
import EntrainCore
import EntrainEngine

/// The client's own commands: liveness, status, the blackout and its undoing, feedback
/// subscriptions and haptic patterns. Declared here with their handlers.
public struct ClientCommands: Sendable {
    /// The current engine (it can be replaced while running).
    let host: @Sendable () -> EngineHost
    /// The arguments of the /status reply.
    let status: @Sendable () -> [OSCValue]
    /// Where /haptic/pattern finds its files (nil: patterns are refused).
    let patterns: PatternPlayer?

    public init(host: @escaping @Sendable () -> EngineHost, status: @escaping @Sendable () -> [OSCValue], patterns: PatternPlayer?) {
        self.host = host
        self.status = status
        self.patterns = patterns
    }

    public static let declarations: [CommandDeclaration<ClientCommands>] = [
        .init(CommandDescriptor("/panic", trigger: .always, """
            light and haptic ports dark from the first frame of the engine's next period; the audio pairs fade out over \
            \(ControlDescriptor.format(EngineHost.panicFadeSeconds * 1000)) ms (no click) and are silent from then plus the limiter's \
            look-ahead (1.5 ms: \(Int(0.0015 * 48_000) + Int(EngineHost.panicFadeSeconds * 48_000) - 1) frames at 48 kHz in all); \
            held until `/resume`. Never queued, never refused
            """)) { client, _ in
            // Whatever it carries (a button's press or release, anything): a blackout is never refused.
            client.host().panic()
            return []
        },
        .init(CommandDescriptor("/resume", trigger: .button,
                                "undoes `/panic`, fading back in over `/master/fade-in`; after a stop (session end, timer, `/session/stop`) it also starts the output again")) { client, _ in
            try client.host().resume()
            return []
        },
        .init(CommandDescriptor("/ping", trigger: .always, answersOnly: true, reply: "`/pong` with the same arguments", "liveness check")) { _, call in
            [.reply(OSCMessage("/pong", call.arguments))]
        },
        .init(CommandDescriptor("/status", answersOnly: true, reply: statusReply, "one snapshot of the state")) { client, _ in
            [.reply(OSCMessage("/status", client.status()))]
        },
        .init(CommandDescriptor("/osc/subscribe", [.optional("i", "port")], answersOnly: true, reply: "the full state, as feedback", """
            send feedback to the sender's address, at `port` or else its source port (over TCP: down the connection); the new \
            subscriber gets every parameter (paced, see Transport). Over UDP it lasts \
            \(OSCServer.seconds(OSCServer.Configuration().subscriptionLifetime)) unless sent again
            """)) { _, call in
            guard call.arguments.count <= 1 else { throw CommandError("expects at most one argument: i port") }
            guard let port = call.arguments.first else { return [.subscribe(port: nil)] }
            guard let n = port.number, n == n.rounded(), (1...65535).contains(n) else { throw CommandError("port must be an integer 1–65535") }
            return [.subscribe(port: Int(n))]
        },
        .init(CommandDescriptor("/osc/unsubscribe", [], answersOnly: true,
                                "stop feedback to the sender's host, or its TCP connection (not to `--osc-feedback` targets)")) { _, _ in
            [.unsubscribe]
        },
        .init(CommandDescriptor("/haptic/pattern", [.required("s", "name", from: .patterns)], readsFiles: true, schedulable: true, """
            play an AHAP pattern (from ./patterns, `$XDG_DATA_HOME/entrain/patterns` or the installed \
            `PREFIX/share/entrain/patterns`, see patterns/README.md) on the haptic and LED pattern sources; in a bundle, it \
            starts on the time tag's frame. Replaces a playing one
            """)) { client, call in
            guard let patterns = client.patterns else { throw CommandError("patterns are not available here") }
            guard call.arguments.count == 1, let name = call.arguments[0].text else {
                throw CommandError("expects one string: a pattern name (from ./patterns)")
            }
            try patterns.play(name, on: client.host(), at: call.frame)
            return []
        },
        .init(CommandDescriptor("/haptic/pattern/stop", trigger: .button, "stop the playing pattern")) { client, _ in
            try client.host().stopPattern()
            return []
        },
    ]

    static let statusReply = """
        `/status s:state s:mode f:carrier f:beat f:volume i:xruns f:dsp_load i:strobe_armed i:panic f:elapsed_seconds s:server \
        i:period i:server_returns f:slowest_period i:connections` (`state` is `running` or `stopped`; carrier, beat in Hz; DSP load in percent \
        of the JACK period; `server` is `up`, or `gone` while the JACK server is away and the client looks for it; `period` in \
        frames; `server_returns` counts the server's returns; `slowest_period` is the slowest process callback of the last whole \
        second, in percent of the period: 100 or more is an overrun; `connections` counts our ports' connections as remembered for a \
        server's return, settled a quarter of a second after the last change)
        """

    var commands: [DeclaredCommand] { Self.declarations.map { $0.bound(to: self) } }
}
