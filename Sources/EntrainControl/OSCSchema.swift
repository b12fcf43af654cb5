import EntrainAddressSpace
import EntrainAmbient
import EntrainCore
import EntrainEngine
import Foundation

/// osc-schema.md, generated from the address space's families (`entrain osc-schema > osc-schema.md`).
/// A test compares the committed file with this output, so the two cannot drift apart.
public enum OSCSchema {
    /// The families a client has from the start, on an engine that never plays (for the schema).
    public static func standardFamilies() throws -> [any AddressFamily] {
        let current = CurrentEngine(try EngineHost(sampleRate: 48_000))
        return [EngineFamily(current), AmbientFamily(AmbientConductor(host: current.host) { .init(frame: 0, unixSeconds: 0) }),
                HRVFamily(HRVMonitor()), DMXFamily(), MIDIFamily(), LinkFamily(DetachedLinkSession())]
    }

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
        - **Files.** `\(FileLoadQueue.readsFiles.sorted().joined(separator: "`, `"))` read their file off
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
          tags apply at the start of the next period. Commands due more than \(ParameterSpec.format(EngineHost.feedHorizonSeconds)) s ahead wait on
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

        ## Commands

        | address | arguments | what it does | reply |
        |---|---|---|---|
        | `/panic` | anything | light and haptic ports dark from the first frame of the engine's next period; the audio pairs fade out over \(ParameterSpec.format(EngineHost.panicFadeSeconds * 1000)) ms (no click) and are silent from then plus the limiter's look-ahead (1.5 ms: \(Int(0.0015 * 48_000) + Int(EngineHost.panicFadeSeconds * 48_000) - 1) frames at 48 kHz in all); held until `/resume`. Never queued, never refused | — |
        | `/resume` | button | undoes `/panic`, fading back in over `/master/fade-in`; after a stop (session end, timer, `/session/stop`) it also starts the output again | — |
        | `/ping` | any | liveness check | `/pong` with the same arguments |
        | `/status` | none | one snapshot of the state | `/status s:state s:mode f:carrier f:beat f:volume i:xruns f:dsp_load i:strobe_armed i:panic f:elapsed_seconds s:server i:period i:server_returns f:slowest_period` (`state` is `running` or `stopped`; carrier, beat in Hz; DSP load in percent of the JACK period; `server` is `up`, or `gone` while the JACK server is away and the client looks for it; `period` in frames; `server_returns` counts the server's returns; `slowest_period` is the slowest process callback of the last whole second, in percent of the period: 100 or more is an overrun) |
        | `/osc/subscribe` | `[i port]` | send feedback to the sender's address, at `port` or else its source port (over TCP: down the connection); the new subscriber gets every parameter (paced, see Transport). Over UDP it lasts \(OSCServer.seconds(defaults.subscriptionLifetime)) unless sent again | the full state, as feedback |
        | `/session/load` | `s:name` | load a session from the session directories (`--sessions-dir`, default `./sessions`, then `$XDG_DATA_HOME/entrain/sessions`, `$XDG_DATA_DIRS` and the installed `PREFIX/share/entrain/sessions`) by name, with or without `.json`; paths outside them (absolute, `..`, links leading out) are refused | — (`/error` if refused or invalid, with the file's problems) |
        | `/session/play` | button | start the loaded session, or resume it where it was paused; fades back in if the output was stopped | — |
        | `/session/pause` | button | freeze: every parameter settles (50 ms) on its value at this moment | — |
        | `/session/stop` | button | end the session with a fade-out (`/master/fade-out`); the client stays up, silent | — |
        | `/session/seek` | `f:seconds` | go to that point of the session: its state there within 50 ms, slides under way continue | — |
        | `/session/status` | none | the transport's state | the messages listed under "Sent by entrain" for sessions and the timer |
        | `/timer/minutes` | `f:minutes` (none: a query) | stop with a fade so that the fade ends after that many minutes (0 < minutes ≤ 1440) | query: `/timer/remaining` |
        | `/timer/cancel` | button | cancel the timer | — |
        | `/preset/save` | `s:name` | save every parameter's current value as a preset (`$XDG_DATA_HOME/entrain/presets/NAME.json`, written atomically). Names: 1–64 letters, digits, spaces, `- _ . ( )` | — |
        | `/preset/load` | `s:name [f:glide]` | glide every parameter but the master section to the preset over `glide` seconds (default 2) | — |
        | `/preset/rename` | `s:old s:new` | rename (refused if `new` exists) | — |
        | `/preset/delete` | `s:name` | delete | — |
        | `/preset/list` | none | the presets | `/preset/list s…` |
        | `/playlist/create` | `s:name` | a new, empty playlist | — |
        | `/playlist/add` | `s:playlist s:kind s:item [f:seconds]` | append `preset` NAME for `seconds`, or `session` NAME | — |
        | `/playlist/remove` | `s:playlist i:item` | remove item (from 1) | — |
        | `/playlist/move` | `s:playlist i:from i:to` | reorder | — |
        | `/playlist/rename`, `/playlist/delete` | `s:old s:new`; `s:name` | as for presets | — |
        | `/playlist/list` | none | the playlists | `/playlist/list s…` |
        | `/playlist/show` | `s:name` | its items | `/playlist/show s:name` then `s:kind s:item f:seconds` per item |
        | `/playlist/play` | `s:name` | play it as one session: presets crossfade in (5 s) and hold for their time, sessions follow with their own stages; progress as for sessions | — |
        | `/osc/unsubscribe` | none | stop feedback to the sender's host, or its TCP connection (not to `--osc-feedback` targets) | — |
        | `/haptic/pattern` | `s:name` | play an AHAP pattern (from ./patterns, `$XDG_DATA_HOME/entrain/patterns` or the installed `PREFIX/share/entrain/patterns`, see patterns/README.md) on the haptic and LED pattern sources; in a bundle, it starts on the time tag's frame. Replaces a playing one | — |
        | `/haptic/pattern/stop` | button | stop the playing pattern | — |
        | `/fx/BUS/add` | `s:URI` | append an LV2 plugin to the insert chain of BUS (`entrainment`, `ambient`, or the mono `haptic`, which takes 1→1 plugins only), before the ceiling; it fades in over 20 ms. Its controls then appear as `/fx/BUS/N/SYMBOL` and `/fx/BUS/N/bypass` (slot N, from 1), described from the plugin's data (docs/lv2.md) | `/fx/BUS/add i:slot s:URI`; `/error` naming the reason (no such plugin, a feature entrain does not provide, ports that do not fit the bus) |
        | `/fx/BUS/remove` | `i:slot` | remove a slot (it fades out first; the plugin is freed off the process thread) | — |
        | `/fx/BUS/move` | `i:from i:to` | move a slot (crossfaded) | — |

        ## Sent by entrain

        | address | arguments | when |
        |---|---|---|
        | every parameter address | its value, in the type its row declares (float; string for choices and lists; `T`/`F` for toggles) | to subscribers and `--osc-feedback HOST:PORT` targets, whenever the value changes, from any source; at most 30 per second per address |
        | every `ADDRESS/norm` | `f` 0…1 | alongside the above |
        | `/meter/entrainment` | `f f`: peak of entrainment_L and _R in dBFS (−120 = silence) | to subscribers, 15 times a second |
        | `/session/state` | `s`: `idle`, `playing`, `paused` or `finished` | to subscribers once a second, and on `/session/status` |
        | `/session/name`, `/session/position`, `/session/stage`, `/session/remaining` | `s:name`; `f:seconds`; `i:number s:name`; `f:seconds` | with `/session/state`, when a session is loaded |
        | `/timer/remaining` | `f:seconds` (−1: no timer) | with `/session/state` |
        | `/beat/onset` | `f`: strength 0…1 (the detection function against its recent maximum) | to subscribers, in a bundle time-tagged with the frame the attack began in beat_in (less beat_in's capture latency), within one period + 2 ms of the hop that detected it |
        | `/beat/beat` | `i`: beat count since the tracker locked (1, 2, 3, …; restarts after a loss of confidence) | to subscribers, in a bundle time-tagged with the predicted beat time, sent when the engine reaches that frame; the bundle also holds `/beat/bpm`, `/beat/confidence` and `/beat/next` |
        | `/beat/next` | `f:seconds` from this beat to the predicted next one | in each beat's bundle |
        | `/beat/bpm` | `f:BPM` (0 = no tempo yet) | in each beat's bundle, and on change (≥ 0.05 BPM, at most 30 per second) |
        | `/beat/confidence` | `f` 0…1: share of recent predicted beats an onset confirmed | in each beat's bundle, and on change (≥ 0.01, at most 30 per second) |
        | `/led/thermal/state` | `s`: `nominal`, `fair`, `serious` or `critical` — the LED thermal state in force (the worse of the model and `/led/thermal`) | to subscribers, on change |
        | `/beat/level` | `f`: beat_in's loudest hop since the last report, RMS dBFS (−150 = silence) | to subscribers, 15 times a second |
        | `/error` | `s:address s:reason` | to the sender of a bad message (address empty when the packet could not be read) |
        | `/pong`, `/status`, query answers | as above | to the sender |

        """
        for family in families { out += section(family) }
        return out
    }

    /// A family's title, introduction and one row per address.
    static func section(_ family: any AddressFamily) -> String {
        var out = "\n## \(family.schemaTitle)\n\n"
        if !family.schemaIntroduction.isEmpty { out += family.schemaIntroduction + "\n\n" }
        out += "| address | type | unit | range | default | /norm | glide | what |\n"
        out += "|---|---|---|---|---|---|---|---|\n"
        for descriptor in family.descriptors { out += row(descriptor) }
        return out
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
