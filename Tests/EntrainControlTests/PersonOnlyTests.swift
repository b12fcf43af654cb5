import EntrainAddressSpace
@testable import EntrainControl
import EntrainEngine
import TestSupport
import XCTest

/// Arming the strobe is a person's decision: every door that is not a person's direct control —
/// a file (session, preset, playlist, last-used, NSM state), a mapping (HRV, the pacer, MIDI), a
/// schedule — is refused, directly and through every mapping's target list.
final class PersonOnlyTests: XCTestCase {
    /// Every address only a person may set (the strobe's arming at least).
    let personOnly = StandardAddresses.space.filter(\.personOnly).map(\.address)

    /// Every setting that names a target, as text naming `target` in its own syntax.
    func mappings(to target: String) -> [(address: String, text: String)] {
        HRVMapping.sources.map { ("/hrv/map/\($0)", target) }
            + [("/hrv/pacer/targets", "/led/manual,\(target)"), ("/midi/map", "1:7=/entrain/volume,1:8=\(target)"), ("/midi/learn", target)]
    }

    func space() throws -> AddressSpace {
        let monitor = HRVMonitor()
        let midi = MIDIFamily()
        let space = AddressSpace([EngineFamily(CurrentEngine(try EngineHost(sampleRate: 48_000))), HRVFamily(monitor), midi])
        monitor.attach(space)
        midi.attach(space)
        return space
    }

    func testTheStrobesArmingIsDeclaredAPersonsDecision() {
        XCTAssertEqual(personOnly, ["/led/arm"])
        XCTAssertEqual(mappings(to: "/x").count, 6, "three HRV metrics, the pacer, the MIDI map and MIDI learn")
    }

    /// Only the person's door sets it; files, mappings and schedules are refused, saying why.
    func testOnlyAPersonsDoorSetsIt() throws {
        let space = try space()
        for address in personOnly {
            let change = try space.parse(address, .bool(true))
            for door in [ChangeDoor.file, .mapping, .schedule] {
                XCTAssertThrowsError(try space.set([change], from: door), "\(address) from \(door)") { error in
                    XCTAssertTrue("\(error)".contains("only a person may set this (never \(door))"), "\(error)")
                }
                XCTAssertEqual(try space.value(of: address), .bool(false))
            }
            XCTAssertThrowsError(try space.set([change], at: 48_000, from: .person), "a person's change planned ahead is a schedule")
            XCTAssertEqual(try space.value(of: address), .bool(false))
            try space.set([change], from: .person)
            XCTAssertEqual(try space.value(of: address), .bool(true))
            XCTAssertFalse(space.presetSnapshot().contains { $0.address == address }, "never saved in a preset or the last-used settings")
        }
    }

    /// No mapping may target it, from any door: OSC (a person setting the mapping), the command
    /// line, a file.
    func testNoMappingMayTargetIt() throws {
        let space = try space()
        for target in personOnly {
            for (address, text) in mappings(to: target) {
                let before = try space.value(of: address)
                XCTAssertThrowsError(try space.set([try space.parse(address, .text(text))], from: .person), address) { error in
                    XCTAssertTrue("\(error)".contains("\(target): only a person may set this: it cannot follow"), "\(address): \(error)")
                }
                XCTAssertEqual(try space.value(of: address), before, "\(address) unchanged")
                for door in [ChangeDoor.person, .file] {
                    XCTAssertThrowsError(try StandardAddresses.parse(address, .text(text), from: door), "\(address) from \(door)") { error in
                        XCTAssertTrue("\(error)".contains("only a person may set this"), "\(error)")
                    }
                }
            }
        }
        // The same mappings onto a steady level are fine.
        try space.set([try space.parse("/midi/map", .text("1:7=/led/manual"))], from: .person)
        try space.set([try space.parse("/hrv/map/coherence", .text("/led/manual"))], from: .person)
    }

    /// A session's "set" block is checked by `validate` and at load: the strobe is armed neither
    /// directly nor through an HRV mapping or a MIDI binding, and each is said with its position.
    func testASessionCannotArmItThroughAnyMapping() throws {
        for (address, text) in mappings(to: "/led/arm") + [("/led/arm", "true")] {
            let value = text == "true" ? "true" : "\"\(text)\""
            let json = "{ \"stages\": [ { \"duration\": 60, \"set\": { \"\(address)\": \(value) } } ] }"
            XCTAssertThrowsError(try SessionDecoder.decode(json, file: "s.json"), address) { error in
                XCTAssertTrue("\(error)".contains("only a person may set this"), "\(address): \(error)")
                XCTAssertTrue("\(error)".contains("s.json:1:"), "positioned: \(error)")
            }
        }
    }

    /// A preset, the last-used settings or NSM state that holds the strobe's arming or a mapping
    /// onto it (an older version saved MIDI maps unchecked) loses that entry, keeps the rest,
    /// and says what was dropped.
    func testAPresetOrSavedStateLosesTheEntryAndKeepsTheRest() throws {
        let text = """
            { "values": { "/entrain/carrier": 250, "/led/arm": true, "/midi/map": "1:7=/led/arm",
                          "/hrv/map/calm": "/led/arm", "/entrain/volume": 0.3 } }
            """
        let (changes, problems) = try Presets.read(text, file: "last-used.json")
        XCTAssertEqual(Set(changes.map(\.address)), ["/entrain/carrier", "/entrain/volume"])
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.allSatisfy { $0.contains("only a person may set this") && $0.first?.isNumber == true }, "positioned: \(problems)")
        XCTAssertThrowsError(try Presets.changes(text, file: "p.json"), "a preset loaded by name says what is wrong")
    }

    /// Over OSC, a time-tagged bundle may not arm (a schedule), an immediate message may.
    func testAScheduledArmingOverOSCIsRefused() throws {
        let host = try TestEngine.host([:])
        let router = OSCRouter(host: { host }, frame: { _ in 96_000 }, status: { [] })
        let later = OSCTimetag.now()
        XCTAssertEqual(router.handle(TimedMessage(timetag: later, message: OSCMessage("/led/arm", [.int32(1)]))),
                       [.error(address: "/led/arm", reason: "only a person may set this (never a schedule): it is a decision made each run")])
        XCTAssertEqual(try host.value(of: "/led/arm"), 0)
        XCTAssertEqual(router.handle(TimedMessage(timetag: .immediately, message: OSCMessage("/led/arm", [.int32(1)]))), [])
        XCTAssertEqual(try host.value(of: "/led/arm"), 1)
    }

    /// What a MIDI controller or an HRV metric sends goes through the mapping door: even a
    /// binding made before this rule existed cannot arm.
    func testAMappingsChangesAreRefusedAtTheDoorToo() throws {
        let space = try space()
        XCTAssertThrowsError(try space.set([ControlChange("/led/arm", .bool(true), glide: 0)], from: .mapping))
        XCTAssertEqual(try space.value(of: "/led/arm"), .bool(false))
    }

    /// A value saved and read back is the value saved: every number's default passes its own
    /// check unchanged (leadDelayTime's 375 on a step of 10 read back as 380).
    func testEveryDefaultReadsBackExactly() throws {
        for d in StandardAddresses.space where !d.readOnly {
            guard case .number = d.kind, let n = d.defaultValue.number else { continue }
            XCTAssertEqual(try d.parse(.number(n)), .number(n), d.address)
            XCTAssertEqual(try d.parse(.text(ControlDescriptor.format(n))), .number(n), d.address)
        }
    }
}
