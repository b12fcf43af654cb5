import EntrainAddressSpace
import EntrainAmbient
import EntrainCore
import EntrainEngine
import Foundation

/// osc-schema.md, generated from the address space's families (`entrain osc-schema > osc-schema.md`).
/// A test compares the committed file with this output, so the two cannot drift apart.
public enum OSCSchema {
    /// The families a client has from the start, on an engine that never plays (for the schema).
    public static func standardFamilies() throws -> [any AddressFamily] { try StandardFamilies.detached() }

    public static func markdown(families: [any AddressFamily]) -> String {
        let defaults = OSCServer.Configuration()
        var out = """
        # entrain OSC address space

        Generated from the address space (every family's declarations) by `entrain osc-schema > osc-schema.md`;
        a test fails when this file and the declarations disagree. Everything here works the same from TouchOSC, `oscsend`,
        SuperCollider or any other OSC sender.

        ## Transport

        - UDP, port 8000 by default (`--osc-port`), listening on 127.0.0.1 only. `--osc-bind ADDR`
          opens it to a network and then requires `--osc-allow CIDR[,CIDR…]` (or `--osc-allow any`);
          packets from other senders are dropped, counted and logged. Loopback is always allowed.
          `--no-osc` turns the server off. IPv4 only.
        - **OSCQuery** over HTTP and its WebSocket on the same port number over TCP (`--oscquery-port`,
          `0` = off), same address and allowlist: this whole address space as JSON with types, ranges,
          units and values, `LISTEN` for changes, OSC over the WebSocket, and a control page at `/ui/`
          (docs/discovery.md).
        - TCP too with `--osc-tcp PORT`, same address and rules. Each connection may use OSC 1.0
          framing (a 32-bit big-endian length before each packet, as liblo sends) or OSC 1.1 SLIP
          framing (as TouchOSC sends), recognised from its first byte; replies and feedback for a
          TCP sender go back down its connection. A broken stream gets `/error` and is closed. A
          connection that sends no packet for \(OSCServer.seconds(defaults.tcpIdleTimeout)) is closed (it gets `/error` saying so): send
          something, `/ping` say, at least that often to keep one open. At most \(defaults.maximumConnections) connections: a
          new one closes one that has sent nothing yet, else the one idle longest.
        - **Rate limit**, per sender (a UDP address and port, or a TCP connection):
          \(grouped(Int(defaults.messageRate))) messages per second; packets beyond are dropped, except that a `/panic` in a
          dropped packet still acts.
        - **Feedback** (`/osc/subscribe`, `--osc-feedback`): each target receives at most
          \(grouped(defaults.feedbackBytesPerSecond)) bytes in any one second, in small bursts. The whole state a subscribe asks for (about 9 KB for
          the engine, 40 KB with the ambient keys) is spread over the following seconds; changes go
          ahead of it, a value changing faster than the budget allows arrives at its latest value,
          and beat bundles beyond the budget are dropped. A UDP subscription lasts
          \(OSCServer.seconds(defaults.subscriptionLifetime)) from the last `/osc/subscribe`: send it again (every 20–30 s, say) to renew
          it; a renewal sends the whole state again unless the last one is still going out. Over TCP
          a subscription lasts as long as the connection; `--osc-feedback` targets never lapse.
        - **Files.** `\(families.flatMap(\.commands).filter(\.readsFiles).map(\.address).sorted().joined(separator: "`, `"))` read their file off
          the OSC thread: everything else, `/panic` included, is served meanwhile. The sender's own
          later messages wait until the load is done and applied (so load-then-play works), except
          `/panic` and `/ping`, which never wait. At most \(FileLoadQueue.maximumLoads) loads under way and \(grouped(FileLoadQueue.maximumHeld)) messages
          waiting behind one; beyond, `/error`.
        - Replies (`/pong`, `/status`, query answers, `/error`) go back to the sender (UDP: its address
          and port).
        - Packets up to 65,507 bytes; bundles nest up to \(OSCCodec.maximumDepth) deep.

        ## Conventions

        - **Natural units.** Every parameter has one address and takes its value in the units below.
          `i`, `h`, `f` and `d` are all accepted where a number is expected. Choices take the option's
          name as a string (or its index as a number); toggles take 1/0 or `T`/`F`.
        - **Out of range is refused**, never clamped: the sender gets `/error` and nothing changes.
        - **`ADDRESS/norm f`** takes 0…1 and maps it onto the parameter's range with its curve
          (`log`: equal ratios per step; `lin`: straight), clamping to 0…1 — what a TouchOSC fader sends.
          Choices divide 0…1 into equal bands; toggles switch at 0.5.
        - **Glide.** An optional second number is a glide time in seconds:
          `/entrain/beat f 6.0 f 30` sweeps the beat to 6 Hz over 30 s. Without it each parameter uses
          the glide listed below. Frequency glides are exponential for `log` parameters, linear otherwise.
        - **Query.** A message with no arguments asks for the value: the reply comes on the same
          address (on `ADDRESS/norm`, as 0…1).
        - **Time tags.** A bundle whose time tag is in the future applies on the exact sample that
          plays at that time (OSC time is mapped onto the JACK frame clock). Immediate or past time
          tags apply at the start of the next period. Commands due more than \(ControlDescriptor.format(EngineHost.feedHorizonSeconds)) s ahead wait on
          the control side and reach the engine shortly before their time, so any time may be
          scheduled, up to \(EngineHost.maximumScheduled) waiting commands at once; past that a command gets
          `/error` ("… waiting for their time tags …") and is not applied. `/panic` never waits behind them.
        - **Command addresses** (`/resume`, `/session/play`, `/session/pause`, `/session/stop`,
          `/timer/cancel`, `/haptic/pattern/stop`, …) take no argument, or one `i`, `h`, `f`, `d`, `T` or
          `F` as a controller's push button sends it: non-zero or `T` does the command (the press), zero,
          `F` or NaN is ignored without a reply (the release). Anything else gets `/error`. A TouchOSC
          button set to send `/session/play` with values 1 (on) and 0 (off) works as it is.
          **`/panic` acts on every message, whatever it carries**, press and release alike: a blackout
          is never refused.
        - **Errors.** A bad message (unknown address, wrong type or count, NaN or infinity, out of
          range, malformed or oversized packet, more than 30,000 messages/s from one sender) gets
          `/error s:address s:reason` (at most 20 per second per sender) and one log line (at most 5
          per second overall); the engine keeps playing and nothing changes. The sender's text in
          both has control characters escaped (`\\n`, `\\u{1B}`) and is cut after \(UntrustedText.limit) characters
          (the address) or \(OSCServer.reasonLimit) (the reason), ending in `… (N characters)`.

        """
        // The client's own commands and what it sends first, then each family of values.
        // Pixel outputs exist only with a rig (--pixels FILE): their addresses once, with NAME for the output's name.
        let pixels: [any AddressFamily] = families.contains { $0 is PixelFamily } ? [] : [PixelFamily.placeholder]
        for family in families.filter({ $0.descriptors.isEmpty }) + families.filter({ !$0.descriptors.isEmpty }) + pixels { out += section(family) }
        return out
    }

    /// A family's title, introduction, commands and values (one row per address), and what it sends.
    static func section(_ family: any AddressFamily) -> String {
        var out = "\n## \(family.schemaTitle)\n\n"
        if !family.schemaIntroduction.isEmpty { out += family.schemaIntroduction + "\n\n" }
        if !family.commands.isEmpty {
            out += "| address | arguments | what it does | reply |\n|---|---|---|---|\n"
            var listed: Set<String> = []
            for command in family.commands where listed.insert(command.pattern ?? command.address).inserted { out += row(command) }
            if !family.descriptors.isEmpty { out += "\n" }
        }
        if !family.descriptors.isEmpty {
            out += "| address | type | unit | range | default | /norm | glide | what |\n"
            out += "|---|---|---|---|---|---|---|---|\n"
            for descriptor in family.descriptors { out += row(descriptor) }
        }
        if !family.published.isEmpty {
            out += "\n## Sent by entrain\n\n| address | arguments | when |\n|---|---|---|\n"
            for item in family.published { out += "| \(item.label) | \(item.arguments) | \(item.when) |\n" }
        }
        return out
    }

    /// A command's row: its arguments as a controller sends them.
    static func row(_ c: CommandDescriptor) -> String {
        let listed = c.arguments.map(\.text).joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
        let arguments: String
        switch c.trigger {
        case .always: arguments = "anything"
        case .button: arguments = "button"
        case .argumentsOrButton: arguments = "`\(listed)` or a button"
        case .arguments: arguments = listed.isEmpty ? "none" : "`\(listed)`"
        }
        return "| `\(c.pattern ?? c.address)` | \(arguments) | \(c.summary) | \(c.reply ?? "—") |\n"
    }

    /// 30000 → "30,000".
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.indices.flatMap { i in (i > 0 && (digits.count - i) % 3 == 0 ? [","] : []) + [digits[i]] })
    }

    static func row(_ d: ControlDescriptor) -> String {
        let type: String, range: String, curve: String
        switch d.kind {
        case .number(let r, let step, let c, let integer):
            type = integer ? "i" : "f"
            range = (r.map { "\(ControlDescriptor.format($0.lowerBound)) … \(ControlDescriptor.format($0.upperBound))" } ?? "any")
                + (step.map { " / \(ControlDescriptor.format($0))" } ?? "")
            curve = r == nil ? "—" : c == .logarithmic ? "log" : "lin"
        case .choice(let options, _):
            type = "s"
            range = options.map { "`\($0)`" }.joined(separator: ", ")
            curve = "bands"
        case .toggle:
            type = "T"
            range = "`T`, `F` (or 1, 0)"
            curve = "switch"
        case .text(let options):
            type = "s"
            range = options.map { $0.map { "`\($0)`" }.joined(separator: ", ") } ?? "any string"
            curve = "—"
        case .list(let options):
            type = "s"
            range = "comma-separated: " + options.map { "`\($0)`" }.joined(separator: ", ") + ", or `none`"
            curve = "—"
        }
        let glide = (d.glideSeconds ?? 0) > 0 ? "\(ControlDescriptor.format((d.glideSeconds ?? 0) * 1000)) ms" : "—"
        let what = [d.summary, d.note].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "; ")
            + (d.readOnly && d.note == nil ? " (read-only)" : "")
            + (d.personOnly ? " (a person's decision: never from a file, a mapping, a MIDI binding or a time-tagged bundle)" : "")
        return "| `\(d.address)` | \(type) | \(d.unit) | \(range) | \(d.defaultValue) | \(curve) | \(glide) | \(what) |\n"
    }
}
