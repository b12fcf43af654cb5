import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The shipped Open Stage Control layout driving a running client, each widget sending what Open
/// Stage Control sends for it (its session format: a fader its value in the widget's range, on its
/// log scale where it has one; a button its `on` and then `off`, a tap only `on`; a dropdown the
/// value picked; an input the text typed). Open Stage Control itself (an Electron app from npm)
/// cannot be installed here: the messages are built from the file as it would build them.
/// Every fader moves its value, every toggle and option is taken, every button's press and
/// release are taken without an error about the message, every loader loads a real stored thing,
/// every readout is an address the client sends, and PANIC silences the output.
final class OpenStageControlLiveTests: LiveClientTestCase {
    /// Link joins the network's session (its own tests run in a private network); PANIC is
    /// pressed last, on purpose; `/osc/subscribe` is the root's script.
    static let notSwept = ["/link/", "/panic"]

    func testEveryWidgetOfTheShippedLayoutDoesWhatItSays() throws {
        let file = EntrainBinary.packageRoot.appendingPathComponent("layouts/entrain.open-stage-control.json")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let widgets = Self.widgets(in: try XCTUnwrap(document["content"] as? [String: Any]))
        let rec = try recorder(channels: 2, seconds: 0.5)
        let (client, _, osc) = try startWithOSC(["--no-restore"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])

        // Something stored for every loader: a preset and a playlist saved here, the shipped rest.
        XCTAssertNil(osc.exchange("/preset/save", [.string("layout-sweep")], then: "/ping", reply: "/pong").error)
        XCTAssertNil(osc.exchange("/playlist/create", [.string("layout-sweep")], then: "/ping", reply: "/pong").error)
        XCTAssertNil(osc.exchange("/playlist/add", [.string("layout-sweep"), .string("session"), .string("alpha-relaxation")],
                                  then: "/ping", reply: "/pong").error)
        let stored = ["/preset/load": "layout-sweep", "/playlist/play": "layout-sweep", "/session/load": "alpha-relaxation",
                      "/ambient/preset/load": "Full_Tide", "/haptic/pattern": "heartbeat"]

        var errors: [String] = [], counts: [String: Int] = [:]
        func done(_ kind: String) { counts[kind, default: 0] += 1 }
        for widget in widgets {
            guard let path = widget["address"] as? String, let type = widget["type"] as? String,
                  !Self.notSwept.contains(where: path.hasPrefix) else { continue }
            switch (type, widget["mode"] as? String) {
            case ("fader", _):
                let range = widget["range"] as? [String: Double] ?? [:]
                let (low, high) = (range["min"] ?? 0, range["max"] ?? 1)
                let log = widget["logScale"] as? Bool ?? false
                let step = widget["step"] as? Double
                /// The value a fader at `position` (0…1) sends.
                func value(_ position: Double) -> Float {
                    var v = log ? low * pow(high / low, position) : low + (high - low) * position
                    if let step, step > 0 { v = (v / step).rounded() * step }
                    return Float(v)
                }
                let before = osc.request(path)?.arguments.first ?? .float(value(0))
                defer { _ = osc.exchange(path, [before], then: path, reply: path) }  // as it was, for the widgets that follow
                let a = osc.exchange(path, [.float(value(0.1))], then: path, reply: path)
                var b = osc.exchange(path, [.float(value(0.9))], then: path, reply: path)
                // A rule between two values may refuse a far position (it names the rule): a nearer one is taken.
                for nearer in [0.6, 0.4] where b.error?.contains("must") == true {
                    b = osc.exchange(path, [.float(value(nearer))], then: path, reply: path)
                }
                guard let x = a.reply?.arguments.first?.number, let y = b.reply?.arguments.first?.number else {
                    errors.append("\(path): \(a.error ?? b.error ?? "no reply")"); continue
                }
                if y <= x { errors.append("\(path): \(value(0.1)) gave \(x), \(value(0.9)) gave \(y)") } else { done("faders moved") }
            case ("button", "toggle"):
                let before = osc.request(path)?.arguments.first ?? .false
                defer { _ = osc.exchange(path, [before], then: path, reply: path) }
                let on = osc.exchange(path, [Self.argument(widget["on"])], then: path, reply: path)
                let off = osc.exchange(path, [Self.argument(widget["off"])], then: path, reply: path)
                if on.reply?.arguments.first != .true || off.reply?.arguments.first != .false {
                    errors.append("\(path): on gave \(on.error ?? "\(String(describing: on.reply))"), off \(off.error ?? "\(String(describing: off.reply))")")
                } else { done("toggles switched") }
            case ("button", "tap"):  // the timer's presets: the minutes on the press, nothing on release
                if let error = osc.exchange(path, [Self.argument(widget["on"])], then: "/ping", reply: "/pong").error {
                    errors.append("\(path) \(widget["on"] ?? ""): \(error)")
                } else { done("taps") }
            case ("button", _):  // push: `on` on the press, `off` on the release
                let press = osc.exchange(path, [Self.argument(widget["on"])], then: "/ping", reply: "/pong")
                let release = osc.exchange(path, [Self.argument(widget["off"])], then: "/ping", reply: "/pong")
                // A command may refuse for the state it finds (nothing loaded); never for what it was sent.
                for error in [press.error, release.error].compactMap({ $0 }) where OSCTestClient.saysTheMessageWasWrong(error) {
                    errors.append("\(path): \(error)")
                }
                done("buttons pressed")
            case ("dropdown", _):
                let options = (widget["values"] as? [String: String] ?? [:]).values.sorted()
                let before = osc.request(path)?.arguments.first
                defer { if let before { _ = osc.exchange(path, [before], then: path, reply: path) } }
                for option in options.prefix(8) {
                    let answer = osc.exchange(path, [.string(option)], then: path, reply: path)
                    if answer.reply?.arguments.first != .string(option) {
                        errors.append("\(path) \(option): \(answer.error ?? "\(String(describing: answer.reply))")")
                    } else { done("options picked") }
                }
            case ("input", _) where stored[path] != nil:  // a loader: the name of something stored
                if let error = osc.exchange(path, [.string(stored[path]!)], then: "/ping", reply: "/pong").error {
                    errors.append("\(path) \(stored[path]!): \(error)")
                } else { done("loaded") }
            case ("input", _):  // a text value: its text typed again is taken as typed
                guard let shown = osc.request(path)?.arguments.first, case .string(let text) = shown else {
                    errors.append("\(path): no text to show"); continue
                }
                let answer = osc.exchange(path, [.string(text)], then: path, reply: path)
                if answer.reply?.arguments.first != shown { errors.append("\(path) \"\(text)\": \(answer.error ?? "\(String(describing: answer.reply))")") } else { done("texts typed") }
            case ("text", _):
                done("readouts")
            default:
                errors.append("\(path): a \(type) widget, which this test does not know")
            }
        }
        print("Open Stage Control layout against a live client: \(counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))")
        XCTAssertEqual(errors, [], "every widget does what it says")
        XCTAssertGreaterThan(counts["faders moved"] ?? 0, 300)
        XCTAssertGreaterThan(counts["toggles switched"] ?? 0, 50)
        XCTAssertGreaterThan(counts["options picked"] ?? 0, 100)
        XCTAssertGreaterThan(counts["buttons pressed"] ?? 0, 10)
        XCTAssertEqual(counts["loaded"], 5)
        XCTAssertEqual(counts["taps"], 4)

        // The readouts: each address is one the client sends to a subscriber (the root's script subscribes).
        let readouts = Set(widgets.filter { $0["type"] as? String == "text" }.compactMap { $0["address"] as? String })
        osc.send("/osc/subscribe")
        osc.send("/session/play", [.true])
        osc.send("/timer/minutes", [.float(10)])
        let heard = Set(osc.receive(timeout: 4).map(\.address))
        let fed = ["/session/state", "/session/remaining", "/timer/remaining"]
        XCTAssertTrue(Set(fed).isSubset(of: readouts), "the show's readouts include \(fed)")
        XCTAssertEqual(Set(fed).subtracting(heard), [], "a subscriber receives what the readouts show")

        // PANIC as the layout sends it (its `on`, then its `off`): the output falls silent.
        let panic = try XCTUnwrap(widgets.first { $0["address"] as? String == "/panic" })
        osc.send("/panic", [Self.argument(panic["on"])])
        osc.send("/panic", [Self.argument(panic["off"])])
        try waitFor("the panic flag") { osc.request("/status")?.arguments[safe: 8] == .int32(1) }
        try waitFor("silence after PANIC") { (try rec.record()).joined().map(abs).max() ?? 1 == 0 }
    }

    /// Every widget of every tab, in order.
    static func widgets(in container: [String: Any]) -> [[String: Any]] {
        let own = container["widgets"] as? [[String: Any]] ?? []
        let tabs = container["tabs"] as? [[String: Any]] ?? []
        return own.flatMap { [$0] + widgets(in: $0) } + tabs.flatMap { widgets(in: $0) }
    }

    /// A button's `on` or `off` as Open Stage Control sends it: a boolean as `T`/`F`, a number as a float.
    static func argument(_ value: Any?) -> OSCValue {
        switch value {
        case let flag as Bool: return flag ? .true : .false
        case let number as Double: return .float(Float(number))
        case let number as Int: return .float(Float(number))
        default: return .string("\(value ?? "")")
        }
    }
}
