import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The shipped TouchOSC layout driving a running client: exactly what each control sends (read
/// back from the file by tosclib), sent over UDP as TouchOSC would. Every fader and switch moves
/// its value (a low and a high position give different values, read back on `/norm`), every
/// option button selects its option, every button's press and release are taken without an
/// error, and PANIC silences the output.
final class TouchOSCLiveTests: LiveClientTestCase {
    /// Link joins the network's session (its own tests run in a private network); PANIC is
    /// pressed last, on purpose.
    static let notSwept = ["/link/", "/panic"]

    func testEveryControlOfTheShippedLayoutDoesWhatItSays() throws {
        if let reason = TouchOSCMessage.unavailable { throw XCTSkip(reason) }
        let layout = try TouchOSCMessage.read(EntrainBinary.packageRoot.appendingPathComponent("layouts/entrain.tosc"))
        let rec = try recorder(channels: 2, seconds: 0.5)
        let (client, _, osc) = try startWithOSC(["--no-restore"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])

        var errors: [String] = [], moved = 0, selected = 0, pressed = 0
        for control in layout where control.send {
            guard let path = control.constantPath, let argument = control.arguments.first,
                  !Self.notSwept.contains(where: path.hasPrefix) else { continue }
            switch (argument.type, argument.conversion) {
            case ("VALUE", "FLOAT"):  // a fader or switch on ADDRESS/norm
                // A rule between two values may refuse a far position (the tempo range must span a
                // factor 1.25): such a refusal names the rule, and a nearer position is taken.
                let before = osc.request(path)?.arguments.first ?? .float(0)
                defer { _ = osc.exchange(path, [before], then: path, reply: path) }  // as it was, for the controls that follow
                let low = osc.exchange(path, [.float(0.1)], then: path, reply: path)
                var high = osc.exchange(path, [.float(0.9)], then: path, reply: path)
                for nearer in [0.6, 0.4] as [Float] where high.error?.contains("must") == true {
                    high = osc.exchange(path, [.float(nearer)], then: path, reply: path)
                }
                guard let a = low.reply?.arguments.first?.number, let b = high.reply?.arguments.first?.number else {
                    errors.append("\(path): \(low.error ?? high.error ?? "no reply")"); continue
                }
                if b <= a { errors.append("\(path): 0.1 gave \(a), 0.9 gave \(b)") } else { moved += 1 }
            case ("CONSTANT", "STRING"):  // an option button
                let option = argument.value ?? ""
                let answer = osc.exchange(path, [.string(option)], then: path, reply: path)
                if answer.reply?.arguments.first != .string(option) { errors.append("\(path) \(option): \(answer.error ?? "\(String(describing: answer.reply))")") } else { selected += 1 }
            case ("CONSTANT", "FLOAT"):  // the timer's minutes
                let answer = osc.exchange(path, [.float(Float(argument.value ?? "") ?? .nan)], then: "/ping", reply: "/pong")
                if let error = answer.error { errors.append("\(path) \(argument.value ?? ""): \(error)") } else { pressed += 1 }
            case ("VALUE", "BOOLEAN"):  // a push button: press, then release
                let press = osc.exchange(path, [.true], then: "/ping", reply: "/pong")
                let release = osc.exchange(path, [.false], then: "/ping", reply: "/pong")
                // A command may refuse for the state it finds (nothing loaded); never for what it was sent.
                for error in [press.error, release.error].compactMap({ $0 }) where OSCTestClient.saysTheMessageWasWrong(error) {
                    errors.append("\(path): \(error)")
                }
                pressed += 1
            default:
                errors.append("\(path): sends \(argument.type) \(argument.conversion), which this test does not know")
            }
        }
        print("TouchOSC layout against a live client: \(moved) faders and switches moved, \(selected) options selected, \(pressed) buttons pressed")
        XCTAssertEqual(errors, [], "every control does what it says")
        XCTAssertGreaterThan(moved, 100)
        XCTAssertGreaterThan(selected, 10)
        XCTAssertGreaterThan(pressed, 10)

        // PANIC as the layout sends it (T on the press): the output falls silent.
        let panic = try XCTUnwrap(layout.first { $0.constantPath == "/panic" })
        XCTAssertEqual(panic.arguments.first?.conversion, "BOOLEAN")
        osc.send("/panic", [.true])
        try waitFor("the panic flag") { osc.request("/status")?.arguments[safe: 8] == .int32(1) }
        try waitFor("silence after PANIC") { (try rec.record()).joined().map(abs).max() ?? 1 == 0 }
    }
}
