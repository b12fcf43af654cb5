import EntrainAddressSpace
import EntrainControl
import EntrainCore
import EntrainEngine
import EntrainLV2
import Foundation
import TestSupport
import XCTest

/// Commands are declarations of the address space: the router runs every declared command, the
/// file-reading rules and the schema come from the declarations, and a MIDI controller or a
/// program change presses a command through the same conventions as an OSC button.
final class CommandDeclarationTests: XCTestCase {
    var folder: URL!
    var host: EngineHost!
    var transport: SessionTransport!
    var library: Library!
    var space: AddressSpace!
    var midi: MIDIFamily!
    var router: OSCRouter!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{ "name": "long", "stages": [ { "duration": 600, "voices": [ { "carrier": 200, "beat": 4 } ] } ] }"#
            .write(to: folder.appendingPathComponent("long.json"), atomically: true, encoding: .utf8)
        host = try TestEngine.host(["/entrain/volume": "0.5"])
        let engine = CurrentEngine(host)
        midi = MIDIFamily()
        space = AddressSpace([EngineFamily(engine), midi, ClientFamily()])
        midi.attach(space)
        transport = SessionTransport(engine: engine, directories: [folder])
        library = Library(dataDirectory: folder.appendingPathComponent("data"))
        let ambient = AmbientController(conductor: nil, presets: AmbientPresets(directories: [folder]))
        router = OSCRouter(host: { engine.host }, frame: { _ in nil }, status: { [] }, transport: transport, library: library,
                           space: space, handlers: [ambient, HRVController(monitor: HRVMonitor())])
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func send(_ address: String, _ arguments: [OSCValue] = []) -> [OSCRouter.Action] {
        router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments)))
    }

    /// The router has a handler for every command the standard families declare (the plugin
    /// chains' are the LV2 host's), and the file-reading rules are the declarations'.
    func testEveryDeclaredCommandIsRoutedAndTheFileRulesComeFromTheDeclarations() {
        let declared = StandardAddresses.commands.filter { !$0.address.hasPrefix(FxChainAddresses.prefix) }
        XCTAssertGreaterThan(declared.count, 35)
        for command in declared { XCTAssertNotNil(router.command(command.address), command.address) }
        XCTAssertEqual(Set(StandardAddresses.commands.filter(\.readsFiles).map(\.address)),
                       ["/session/load", "/preset/load", "/playlist/play", "/ambient/preset/load", "/haptic/pattern"])
        XCTAssertEqual(StandardAddresses.commands.filter { $0.trigger == .always }.map(\.address), ["/panic", "/ping"])
        XCTAssertFalse(StandardAddresses.command("/panic")!.schedulable, "a blackout never waits for a time tag")
    }

    /// A command whose whole effect is its reply (/ping takes any message, like /panic) is never
    /// a button: a layout, MIDI learn or a mapping would press it for no one to hear the answer.
    /// The declarations say which; nothing lists them by name.
    func testCommandsThatOnlyAnswerAreNotPressable() {
        let ping = StandardAddresses.command("/ping")!
        XCTAssertEqual(ping.trigger, .always)
        XCTAssertTrue(ping.answersOnly)
        XCTAssertFalse(ping.pressable)
        XCTAssertTrue(StandardAddresses.command("/panic")!.pressable)
        XCTAssertEqual(Set(StandardAddresses.commands.filter(\.answersOnly).map(\.address)),
                       ["/ping", "/status", "/session/status", "/ambient/status", "/preset/list", "/playlist/list", "/playlist/show"])
        XCTAssertFalse(StandardAddresses.commands.contains { $0.answersOnly && $0.pressable })
    }

    /// `/session/restart` is one declaration and one handler: the router runs it (a press goes
    /// back to the start, a release is ignored), the schema documents it, MIDI may bind it.
    func testANewCommandIsOneDeclaration() throws {
        XCTAssertEqual(send("/session/load", [.string("long")]), [])
        XCTAssertEqual(send("/session/play"), [])
        XCTAssertEqual(send("/session/seek", [.float(300)]), [])
        XCTAssertEqual(try XCTUnwrap(transport.place).position, 300, accuracy: 0.01)
        XCTAssertEqual(send("/session/restart", [.float(0)]), [], "a release")
        XCTAssertEqual(try XCTUnwrap(transport.place).position, 300, accuracy: 0.01, "the release did nothing")
        XCTAssertEqual(send("/session/restart", [.float(1)]), [])
        XCTAssertEqual(try XCTUnwrap(transport.place).position, 0, accuracy: 0.01, "from the top")
        XCTAssertEqual(try XCTUnwrap(transport.place).state, .playing)
        let schema = OSCSchema.markdown(families: try OSCSchema.standardFamilies())
        XCTAssertTrue(schema.contains("| `/session/restart` | button | play the loaded session again"), "in the schema")
        XCTAssertNoThrow(try space.set([ControlChange("/midi/map", .text("1:64=/session/restart"))], from: .person), "a foot switch may press it")
    }

    /// A foot switch on controller 64: crossing up to ≥ 64 presses once (a controller repeating
    /// 127 does not press again), falling below releases; /panic acts on both, a button command
    /// only on the press — and both reach the engine through the router as a mapping.
    func testAMIDIFootSwitchPressesACommand() throws {
        try space.set([ControlChange("/midi/map", .text("1:64=/panic,1:65=/session/stop"))], from: .person)
        XCTAssertEqual(try space.value(of: "/midi/map"), .text("1:64=/panic,1:65=/session/stop"))
        func calls(_ value: UInt8, controller: UInt8 = 64) -> [String] {
            midi.outcome(of: MIDIInEvent(frame: 0, size: 3, b0: 0xB0, b1: controller, b2: value)).calls.map { "\($0.address) \($0.arguments)" }
        }
        XCTAssertEqual(calls(127), ["/panic [T]"])
        XCTAssertEqual(calls(100), [], "still down: no second press")
        XCTAssertEqual(calls(0), ["/panic [F]"])
        XCTAssertEqual(calls(30), [], "still up")
        XCTAssertEqual(router.perform("/panic", [.false], door: .mapping), [])
        XCTAssertTrue(host.isPanicked, "panic acts on the release too")
        host.status.pointee.panicRequested.store(false, ordering: .relaxed)
        XCTAssertEqual(router.perform("/panic", [.true], door: .mapping), [])
        XCTAssertTrue(host.isPanicked)
        XCTAssertEqual(router.perform("/resume", [.false], door: .mapping), [], "a release is ignored")
        XCTAssertTrue(host.isPanicked)
        XCTAssertEqual(router.perform("/resume", [.true], door: .mapping), [])
        XCTAssertFalse(host.isPanicked)
        XCTAssertNil(router.perform("/entrain/carrier", [.true], door: .mapping), "a value is not a command")
    }

    /// Commands a button cannot send (they take a name), and the person's decisions, are not MIDI
    /// targets; an HRV metric steers values only.
    func testCommandsThatAreNotButtonsAreRefusedAsTargets() {
        for (map, reason) in [("1:64=/preset/load", "takes arguments a button cannot send"), ("1:64=/led/arm", "only a person may set this"),
                              ("1:64=/nowhere", "unknown address"), ("1:64=/ping", "only answers the sender"),
                              ("1:64=/ambient/status", "only answers the sender")] {
            XCTAssertThrowsError(try space.set([ControlChange("/midi/map", .text(map))], from: .person), map) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(map): \(error)")
            }
        }
        XCTAssertEqual(try space.value(of: "/midi/map"), .text("none"), "nothing bound")
        XCTAssertThrowsError(try MappingTargets.check(ControlChange("/hrv/map/coherence", .text("/panic")), in: StandardAddresses.descriptor(for:))) {
            XCTAssertTrue("\($0)".contains("is a command"), "\($0)")
        }
    }

    /// A program change bound to a preset loads it, as /preset/load does (its glide: 2 s).
    func testAProgramChangeLoadsAPreset() throws {
        XCTAssertEqual(send("/entrain/carrier", [.float(333)]), [])
        XCTAssertEqual(send("/preset/save", [.string("calm")]), [])
        XCTAssertEqual(send("/entrain/carrier", [.float(250)]), [])
        try space.set([ControlChange("/midi/programs", .text("1:5=calm"))], from: .person)
        XCTAssertEqual(try space.value(of: "/midi/programs"), .text("1:5=calm"))
        let outcome = midi.outcome(of: MIDIInEvent(frame: 0, size: 2, b0: 0xC0, b1: 5, b2: 0))
        XCTAssertEqual(outcome.calls.map(\.address), ["/preset/load"])
        XCTAssertEqual(outcome.calls.first?.arguments, [.string("calm")])
        XCTAssertTrue(midi.outcome(of: MIDIInEvent(frame: 0, size: 2, b0: 0xC1, b1: 5, b2: 0)).calls.isEmpty, "another channel")
        for call in outcome.calls { XCTAssertEqual(router.perform(call.address, call.arguments, door: .mapping), []) }
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        _ = renderer.renderStereo(frames: 48_000 * 5 / 2)
        XCTAssertEqual(try host.value(of: "/entrain/carrier"), 333, accuracy: 1e-3)
        XCTAssertThrowsError(try space.set([ControlChange("/midi/programs", .text("17:5=calm"))], from: .person))
    }

    /// A command declared a person's decision runs for a person only: a time-tagged bundle (a
    /// schedule) or a MIDI binding (a mapping) is refused before its handler runs.
    func testAPersonsCommandRefusesOtherDoors() {
        struct Arming: CommandSource {
            let count = Counter()
            var commands: [DeclaredCommand] {
                [DeclaredCommand(CommandDescriptor("/test/arm", trigger: .button, personOnly: true, "a person's decision")) { [count] _ in
                    count.add()
                    return []
                }]
            }
        }
        final class Counter: @unchecked Sendable {
            var n = 0
            func add() { n += 1 }
        }
        let arming = Arming()
        let scheduled = arming.handle(TimedMessage(timetag: .immediately, message: OSCMessage("/test/arm")), frame: 96_000)
        guard case .error(_, let reason)? = scheduled?.first else { return XCTFail("a schedule was not refused") }
        XCTAssertTrue(reason.contains("only a person"), reason)
        let engine = CurrentEngine(host)
        let withArming = OSCRouter(host: { engine.host }, frame: { _ in nil }, status: { [] }, handlers: [arming])
        guard case .error? = withArming.perform("/test/arm", [.true], door: .mapping)?.first else { return XCTFail("a mapping was not refused") }
        XCTAssertEqual(arming.count.n, 0, "the handler never ran")
        XCTAssertEqual(withArming.perform("/test/arm", [.true], door: .person), [])
        XCTAssertEqual(arming.count.n, 1)
        XCTAssertFalse(StandardAddresses.commands.contains { $0.personOnly && $0.pressable }, "never a button target")
    }
}
