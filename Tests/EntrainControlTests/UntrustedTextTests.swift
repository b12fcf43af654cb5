import EntrainControl
import Foundation
import XCTest

/// A sender's text reaches logs and /error replies escaped and cut.
final class UntrustedTextTests: XCTestCase {
    func testControlsAreEscapedAndLongTextIsCut() {
        XCTAssertEqual(UntrustedText.clean("a\nb\r\tc\u{1B}[31m\u{202E}d"), "a\\nb\\r\\tc\\u{1B}[31m\\u{202E}d")
        XCTAssertEqual(UntrustedText.clean("preset (1) – été 🎧"), "preset (1) – été 🎧", "printable text is kept as it is")
        let long = String(repeating: "x", count: 60_000)
        XCTAssertEqual(UntrustedText.clean(long), String(repeating: "x", count: 200) + "… (60000 characters)")
        XCTAssertEqual(UntrustedText.clean(String(repeating: "x", count: 200)), String(repeating: "x", count: 200), "200 fit")
    }

    /// Through a real server: a newline in a name cannot forge a log line, terminal escapes are
    /// shown, not obeyed, and a 60 KB name is neither logged nor sent back whole.
    func testLogsAndErrorRepliesCarryTheSendersTextEscapedAndCut() throws {
        let fixture = try OSCServerFixture()
        let sender = try fixture.client()
        let long = "/" + String(repeating: "a", count: 1_000)
        let forged = "beat\n[2026-01-01 00:00:00] critical: forged line"
        let escapes = "\u{1B}[2J\u{1B}[31m"  // clear the screen, turn red
        let huge = String(repeating: "b", count: 60_000)
        var errors: [OSCMessage] = []
        for (address, arguments) in [("/x" + escapes, [OSCValue.float(1)]), (long, [.float(1)]), ("/led/source", [.string(forged)]),
                                     ("/led/source", [.string(escapes)]), ("/led/source", [.string(huge)])] {
            sender.send(address, arguments)
            errors += sender.receive(timeout: 1) { $0.address == "/error" }.filter { $0.address == "/error" }
        }
        XCTAssertEqual(errors.map { $0.arguments.first?.text ?? "-" },
                       ["", "/" + String(repeating: "a", count: 199) + "… (1001 characters)", "/led/source", "/led/source", "/led/source"])
        XCTAssertTrue(errors[0].arguments.last?.text?.contains("malformed address") ?? false, "escapes are no address")
        XCTAssertTrue(errors[2].arguments.last?.text?.hasPrefix("unknown name 'beat\\n[2026-01-01 00:00:00] critical: forged line'") ?? false,
                      "\(errors[2])")
        XCTAssertTrue(errors[3].arguments.last?.text?.hasPrefix("unknown name '\\u{1B}[2j\\u{1B}[31m'") ?? false, "\(errors[3])")
        let cut = errors[4].arguments.last?.text ?? ""
        let original = "unknown name '\(huge)' (entrainment, beat, manual, pattern, or none)".count
        XCTAssertEqual(cut, "unknown name '" + String(repeating: "b", count: 400 - 14) + "… (\(original) characters)")

        let lines = fixture.log.all
        XCTAssertEqual(lines.count, 5, "\(lines)")
        for line in lines {
            XCTAssertFalse(line.contains("\n") || line.contains("\u{1B}"), line)
            XCTAssertLessThan(line.count, 700, "a bounded line")
        }
    }
}
