import EntrainAddressSpace
import EntrainControl
import EntrainCore
import Foundation
import XCTest

/// Notes as buttons and faders, and commands bound with the name they load or play: a pad plays
/// a haptic pattern, another loads a preset, a note learnt like a controller.
extension CommandDeclarationTests {
    func note(_ number: UInt8, velocity: UInt8, channel: UInt8 = 9) -> MIDIFamily.Outcome {
        midi.outcome(of: MIDIInEvent(frame: 0, size: 3, b0: (velocity > 0 ? 0x90 : 0x80) | channel, b1: number, b2: velocity))
    }

    func calls(_ outcome: MIDIFamily.Outcome) -> [String] { outcome.calls.map { "\($0.address) \($0.arguments)" } }

    func testANoteBoundToACommandIsAPadAndANamedCommandGetsItsName() throws {
        let map = "10:note36=/panic,10:note38=/haptic/pattern heartbeat,10:note40=/preset/load deep focus,10:note41=/entrain/volume"
        try space.set([ControlChange("/midi/map", .text(map))], from: .person)
        XCTAssertEqual(try space.value(of: "/midi/map"), .text(map), "the bindings read back as written (sorted)")
        XCTAssertEqual(calls(note(36, velocity: 100)), ["/panic [T]"])
        XCTAssertEqual(calls(note(36, velocity: 0)), ["/panic [F]"], "the note-off is panic's release")
        XCTAssertEqual(calls(note(38, velocity: 90)), ["/haptic/pattern \([OSCValue.string("heartbeat")])"], "the pad plays the pattern")
        XCTAssertEqual(calls(note(38, velocity: 0)), [], "the release of a named command does nothing")
        XCTAssertEqual(note(40, velocity: 1).calls.first?.arguments, [.string("deep focus")], "a name with a space")
        // A note on a value: its velocity sets it; the note-off leaves it; /led/manual untouched.
        let played = note(41, velocity: 127)
        XCTAssertEqual(played.changes.map(\.address), ["/entrain/volume"])
        XCTAssertEqual(played.changes.first?.value, .number(1))
        XCTAssertTrue(note(41, velocity: 0).changes.isEmpty)
        // An unbound note still drives the manual light and haptics.
        XCTAssertEqual(note(50, velocity: 127).changes.map(\.address), ["/led/manual", "/haptic/intensity"])
        XCTAssertTrue(note(36, velocity: 100, channel: 0).calls.isEmpty, "another channel's note 36 is not the pad")
    }

    func testANoteIsLearntLikeAController() throws {
        try space.set([ControlChange("/midi/learn", .text("/haptic/pattern heartbeat"))], from: .person)
        XCTAssertEqual(try space.value(of: "/midi/learn"), .text("/haptic/pattern heartbeat"))
        XCTAssertTrue(note(44, velocity: 0).learned == nil, "a note-off teaches nothing")
        let learnt = note(44, velocity: 64)
        XCTAssertEqual(learnt.learned, "10:note44=/haptic/pattern heartbeat")
        XCTAssertEqual(calls(learnt), ["/haptic/pattern \([OSCValue.string("heartbeat")])"], "the learning note plays it too")
        XCTAssertEqual(try space.value(of: "/midi/map"), .text("10:note44=/haptic/pattern heartbeat"))
        XCTAssertEqual(try space.value(of: "/midi/learn"), .text("none"))
    }

    /// Only commands that load or play something take a name from a binding; saving, renaming or
    /// deleting by a button, a person's decision, or a value given a name are refused.
    func testANamedBindingOnlyLoadsOrPlays() {
        for (map, reason) in [("1:note1=/preset/delete calm", "does not load or play"), ("1:note1=/preset/save calm", "does not load or play"),
                              ("1:note1=/led/arm yes", "only a person may"), ("1:note1=/entrain/volume loud", "is a value"),
                              ("1:note128=/panic", "is not CHANNEL"), ("1:nope=/panic", "is not CHANNEL"), ("1:note2=panic", "does not name an /address")] {
            XCTAssertThrowsError(try space.set([ControlChange("/midi/map", .text(map))], from: .person), map) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(map): \(error)")
            }
        }
        XCTAssertThrowsError(try space.set([ControlChange("/midi/learn", .text("/preset/delete calm"))], from: .person))
        XCTAssertEqual(try space.value(of: "/midi/map"), .text("none"), "nothing bound")
    }
}
