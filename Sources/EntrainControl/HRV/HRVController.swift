import EntrainAddressSpace
import Foundation

/// HRV's own addresses besides its values: heart data in (ours and the bridges'), recording,
/// and queries of the mode and phase. Nothing a sender sends may crash it.
public final class HRVController: CommandSource {
    public let monitor: HRVMonitor

    public init(monitor: HRVMonitor) { self.monitor = monitor }

    public var commands: [DeclaredCommand] { Self.declarations.map { $0.bound(to: self) } }

    public static let declarations: [CommandDeclaration<HRVController>] = [
        .init(CommandDescriptor("/hrv/record/start", [.required("s", "name")], """
            record each update as one line of NAME.jsonl in the recordings folder (`$XDG_DATA_HOME/entrain/recordings`); an \
            existing file is refused. `--hrv-record FILE.jsonl` records from the start
            """)) { c, call in
            guard call.arguments.count == 1, let name = call.arguments[0].text else {
                throw CommandError("expects one string: a recording name (written as NAME.jsonl in the recordings folder)")
            }
            try c.monitor.startRecording(named: name)
            return []
        },
        .init(CommandDescriptor("/hrv/record/stop", trigger: .button, "stop recording")) { c, _ in
            c.monitor.stopRecording()
            return []
        },
        .init(CommandDescriptor("/hrv/mode", answersOnly: true, reply: "`/hrv/mode s:mode f:membership`", "ask for the breathing mode now")) { c, call in [.reply(try c.latest(call).mode)] },
        .init(CommandDescriptor("/hrv/phase", answersOnly: true, reply: """
            `/hrv/phase f:entrainment f:breath f:amplitude f:speed f:stability f:trajectory_coherence s:label` (the \
            phase-space position is the first three, 0…1; the sixth is the trajectory coherence, not `/hrv/coherence`)
            """, "ask for the phase-space position now")) { c, call in [.reply(try c.latest(call).phase)] },
    ]

    /// The latest update's mode and phase messages, for a query.
    private func latest(_ call: CommandCall) throws -> (mode: OSCMessage, phase: OSCMessage) {
        guard call.arguments.isEmpty else { throw CommandError("is published, not set: send it without arguments to ask") }
        guard let u = monitor.latest else { throw CommandError("no live RR intervals: HRV is not available") }
        return (HRVMonitor.modeMessage(u), HRVMonitor.phaseMessage(u))
    }

    /// Heart data, at the addresses each sensor bridge uses.
    public func handleUndeclared(_ timed: TimedMessage, frame: Int64?) -> [OSCRouter.Action]? {
        heart(timed.message).map { refusal in refusal.map { [.error(address: timed.message.address, reason: $0)] } ?? [] }
    }

    /// Heart data: nil when `message` is none; else nil inside when taken, the refusal's reason when not.
    public func heart(_ message: OSCMessage) -> String?? {
        guard let read = HeartInput.read(message) else { return nil }
        switch read {
        case .success(let input):
            monitor.receive(input)
            return .some(nil)
        case .failure(let refusal): return .some(refusal.reason)
        }
    }

    static let schemaIntroduction = """
        Heart-rate variability from RR intervals sent over OSC (docs/hrv.md has the definitions).
        Heart data may come to the OSC port or, with `--hrv-port PORT`, to a port of its own (never
        9000 by default: VRChat listens there). RR intervals outside 300–2000 ms, more than 30 % from
        the median of the last nine, or the two parts of a split beat are rejected and counted
        (`/hrv/artifacts`). About once a second (on the first beat a second after the last update)
        the pipeline updates every value below; values older than 10 s read 0 and `/hrv/available` 0.
        HRV settings are never stored in presets or the last-used settings.

        | address | arguments | unit | what |
        |---|---|---|---|
        | `/hrv/rr` | `i`/`f`… one or more | ms | RR intervals, oldest first: one message per sensor notification, so no beat is lost |
        | `/avatar/parameters/RRInterval` | `i` | ms | PyHRPresence, iron-heart: the newest RR only; a repeated value is dropped, and so is exactly 60000/BPM of the last heart rate (their stand-in for a packet without RR) |
        | `/polar/<k>/ibi` | `i` | 1/1024 s | polar2osc: one message per beat, converted to ms (×1000/1024, not truncated) |
        | `/<id>/hr`, `/polar/<id>/hr` | `i` hr, `i` RR ms…, `i` RR 1/1024 s…, `i` contact, `i` supported | ms | Sensor2OSC's list: the RR in ms are taken; with one argument it is a heart rate (polar2osc's `/polar/<k>/hr`) |
        | `/EmotiBit/<k>/BI` | `f`… | ms | EmotiBit's inter-beat intervals patched to OSC |
        | `/avatar/parameters/HR`, `/avatar/parameters/VRCOSC/Heartrate/Value`, `/avatar/parameters/HeartRateInt`, `/avatar/parameters/Heartrate3`, `/heartrate` | `i` | BPM | heart rate only: shown at `/hrv/hr`; HRV stays unavailable (never made up from 60000/BPM) |

        Sent to subscribers once a second while RR intervals are live, and on every change of mode:
        `/hrv/mode s:mode f:membership` and `/hrv/phase …`, as their queries below answer. The published values below go out
        on change, with their `/norm` gauges.

        Mappings (off by default; from OSC, `--set`, or a session stage's `"set"` block): `/hrv/map/SOURCE`
        names an address that the metric steers at each update (gliding 1 s), from the fader position
        `…/low` at 0 to `…/high` at 1. The pacer moves `/hrv/pacer/targets` up and down once per breath.
        """
}
