import Foundation
import TestSupport
import XCTest

/// MIDI into midi_in from another JACK client: a controller learned over OSC moves its address,
/// a mapped one too, and notes set the LED's manual level the led port then shows.
final class MIDIInputLiveTests: LiveClientTestCase {
    func value(_ osc: OSCTestClient, _ address: String) -> Double? {
        guard let reply = osc.request(address), let first = reply.arguments.first else { return nil }
        switch first {
        case .float(let v): return Double(v)
        case .double(let v): return v
        case .int32(let v): return Double(v)
        default: return nil
        }
    }

    func text(_ osc: OSCTestClient, _ address: String) -> String? {
        guard let reply = osc.request(address), case .string(let s) = reply.arguments.first else { return nil }
        return s
    }

    func testLearnMapAndNotes() throws {
        let server = try self.server
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--midi-in", "--set", "/led/source/manual=1", "--set", "/midi/map=2:10=/entrain/volume"],
                                                recorder: rec)
        let keys = try JackMIDISender(server: server.name)
        try keys.connect(to: "entrain:midi_in")
        try rec.connect(["entrain:led"])

        // Learn: the next controller moved binds to /led/level.
        osc.send("/midi/learn", [.string("/led/level")])
        XCTAssertEqual(text(osc, "/midi/learn"), "/led/level")
        keys.send(0xB0, 7, 127)  // channel 1, controller 7: learned, and already applied
        XCTAssertTrue(waitUntil(timeout: 5) { text(osc, "/midi/learn") == "none" }, "learning ends with the first controller")
        XCTAssertEqual(text(osc, "/midi/map"), "1:7=/led/level,2:10=/entrain/volume")
        keys.send(0xB0, 7, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { value(osc, "/led/level").map { abs($0) < 1e-6 } ?? false }, "controller 0 = the range's bottom")
        keys.send(0xB0, 7, 127)
        keys.send(0xB1, 10, 64)  // channel 2, controller 10: mapped on the command line
        XCTAssertTrue(waitUntil(timeout: 5) { value(osc, "/entrain/volume").map { abs($0 - 64.0 / 127) < 1e-4 } ?? false }, "like a fader over 0-1")
        XCTAssertEqual(try XCTUnwrap(value(osc, "/led/level")), 1, accuracy: 1e-6)
        // Another channel is not bound: its message, then one on a bound controller after it
        // (handled in order), leave the volume where it was.
        keys.send(0xB0, 7, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { value(osc, "/led/level").map { abs($0) < 1e-6 } ?? false })
        keys.send(0xB2, 10, 100)
        keys.send(0xB0, 7, 127)
        XCTAssertTrue(waitUntil(timeout: 5) { value(osc, "/led/level").map { abs($0 - 1) < 1e-6 } ?? false }, "the controller after it arrived")
        XCTAssertEqual(try XCTUnwrap(value(osc, "/entrain/volume")), 64.0 / 127, accuracy: 1e-4)

        // A note sets /led/manual to its velocity; the led port shows it; note-off darkens it.
        keys.send(0x90, 60, 100)
        XCTAssertTrue(waitUntil(timeout: 5) { abs(rec.level - Float(100.0 / 127)) < 1e-5 }, "the note's velocity on the led port")
        XCTAssertEqual(try rec.record()[0].last!, Float(100.0 / 127), accuracy: 1e-5)
        keys.send(0x80, 60, 0)
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 0 }, "dark after the note-off")
        XCTAssertEqual(try rec.record()[0].last!, 0, accuracy: 1e-6)

        // A learn aimed at something a controller cannot move is refused.
        XCTAssertNotNil(osc.request("/midi/learn", [.string("/nowhere")], reply: "/error"))
        stopClient(client)
    }

    /// A foot switch on controller 64 bound to /panic blacks out the led port on its press and
    /// again on its release (panic acts on both); one bound to /resume acts on its press only;
    /// a program change bound to a preset loads it.
    func testAFootSwitchPressesCommandsAndAProgramChangeLoadsAPreset() throws {
        let server = try self.server
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("midi-commands-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--midi-in", "--set", "/led/source/manual=1", "--set", "/led/manual=1",
                                                 "--set", "/midi/map=1:64=/panic,1:65=/resume", "--set", "/midi/programs=1:3=calm"],
                                                environment: ["XDG_DATA_HOME": data.path], recorder: rec)
        defer { stopClient(client) }
        let pedal = try JackMIDISender(server: server.name)
        try pedal.connect(to: "entrain:midi_in")
        try rec.connect(["entrain:led"])
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 1 }, "lit before the pedal")

        pedal.send(0xB0, 64, 127)  // press: blackout
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 0 }, "the press blacked out the led port")
        XCTAssertEqual(osc.request("/status")?.arguments[safe: 8], .int32(1), "/status says panic")
        pedal.send(0xB0, 65, 127)  // the resume switch's press
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 1 }, "resumed by the other switch")
        pedal.send(0xB0, 65, 0)  // its release: ignored
        pedal.send(0xB0, 64, 0)  // the panic switch's release: a blackout too
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 0 }, "panic acts on the release")
        XCTAssertEqual(osc.request("/status")?.arguments[safe: 8], .int32(1))
        osc.send("/resume")
        XCTAssertTrue(waitUntil(timeout: 5) { rec.level == 1 })

        // A program change loads the preset, as /preset/load does (a 2 s glide).
        osc.send("/entrain/carrier", [.float(345)])
        osc.send("/preset/save", [.string("calm")])
        osc.send("/entrain/carrier", [.float(250)])
        XCTAssertEqual(value(osc, "/entrain/carrier"), 250)
        pedal.send([0xC0, 3])
        XCTAssertTrue(waitUntil(timeout: 10) { value(osc, "/entrain/carrier").map { abs($0 - 345) < 1e-3 } ?? false }, "the preset's carrier")

        // A command that takes a name, or the strobe's arming, cannot be bound.
        XCTAssertNotNil(osc.request("/midi/map", [.string("1:64=/preset/load")], reply: "/error"))
        XCTAssertNotNil(osc.request("/midi/learn", [.string("/led/arm")], reply: "/error"))
    }

    /// Drum pads on channel 10: one plays a haptic pattern on the haptic port, one (learnt) loads
    /// a preset saved before it was bound and stays bound; a preset carries the bindings, and
    /// loading it adds them to the ones in force without taking any away.
    func testPadsPlayAPatternAndLoadAPresetAndTheBindingsTravelWithPresets() throws {
        let server = try self.server
        let data = try TemporaryFolder("midi-pads")
        let patterns = try TemporaryFolder("midi-patterns")
        defer { data.remove(); patterns.remove() }
        try Data(LightLiveTests.shortPattern.utf8).write(to: patterns.url.appendingPathComponent("short.ahap"))
        let rec = try recorder(channels: 1, seconds: 0.6)
        let (client, _, osc) = try startWithOSC(["--midi-in", "--patterns-dir", patterns.url.path,
                                                 "--set", "/midi/map=10:note38=/haptic/pattern short"],
                                                environment: ["XDG_DATA_HOME": data.url.path], recorder: rec)
        defer { stopClient(client) }
        let pads = try JackMIDISender(server: server.name)
        try pads.connect(to: "entrain:midi_in")
        try rec.connect(["entrain:haptic"])
        XCTAssertEqual(Measure.peak(try rec.record()[0]), 0, "the haptic port is silent before the pad")

        let take = try record(rec) { pads.send(0x99, 38, 110) }  // channel 10, note 38: the snare pad
        XCTAssertGreaterThan(Measure.peak(take), 0.3, "the pad played the pattern on the haptic port")
        pads.send(0x89, 38, 0)

        // Learn a pad for a preset by name; the learning note loads it at once.
        osc.send("/entrain/carrier", [.float(345)])
        osc.send("/preset/save", [.string("calm")])
        osc.send("/entrain/carrier", [.float(250)])
        XCTAssertEqual(value(osc, "/entrain/carrier"), 250)
        osc.send("/midi/learn", [.string("/preset/load calm")])
        XCTAssertEqual(text(osc, "/midi/learn"), "/preset/load calm")
        pads.send(0x99, 36, 100)
        XCTAssertTrue(waitUntil(timeout: 10) { value(osc, "/entrain/carrier").map { abs($0 - 345) < 1e-3 } ?? false }, "the kick pad loaded the preset")
        let both = "10:note36=/preset/load calm,10:note38=/haptic/pattern short"
        XCTAssertEqual(text(osc, "/midi/map"), both, "the preset, saved with the snare pad only, left the kick pad bound")

        // The bindings travel with presets.
        osc.send("/preset/save", [.string("with pads")])
        osc.send("/midi/map", [.string("none")])
        osc.send("/preset/save", [.string("no pads")])
        osc.send("/midi/map", [.string("1:64=/panic")])
        osc.send("/preset/load", [.string("with pads"), .float(0)])
        XCTAssertTrue(waitUntil(timeout: 10) { text(osc, "/midi/map") == "1:64=/panic," + both }, "a preset adds its bindings to the ones in force")
        osc.send("/preset/load", [.string("no pads"), .float(0)])
        osc.send("/entrain/carrier", [.float(300)])  // a message after the load: handled once it is done
        XCTAssertTrue(waitUntil(timeout: 10) { value(osc, "/entrain/carrier") == 300 })
        XCTAssertEqual(text(osc, "/midi/map"), "1:64=/panic," + both, "one saved without bindings takes none away")

        // A binding that would delete a preset, or arm the strobe, is refused whoever asks.
        XCTAssertNotNil(osc.request("/midi/map", [.string("10:note40=/preset/delete calm")], reply: "/error"))
        XCTAssertNotNil(osc.request("/midi/map", [.string("10:note40=/led/arm")], reply: "/error"))
    }
}
