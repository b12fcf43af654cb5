import EntrainAddressSpace
import EntrainAmbient
@testable import EntrainControl
import EntrainCore
import EntrainEngine
import Foundation
import Kessho
import TestSupport
import XCTest

/// One address space: every family read with the same rules, time tags and stage changes
/// landing on their frame, presets covering every family.
final class AddressSpaceTests: XCTestCase {
    let start = 1_770_040_800.0  // a fixed UTC second: the same chords every run

    /// An engine, the ambient conductor on its offline clock (a render's lookahead), and the
    /// space of both families.
    func parts(state: KesshoState = .defaults, lookahead: Double = 256.0 / 48_000) throws -> (EngineHost, AmbientConductor, AddressSpace) {
        let host = try TestEngine.host(["/entrain/volume": "0.5"])
        let start = self.start
        let conductor = AmbientConductor(host: host, state: state, seed: 1, lookaheadSeconds: lookahead) {
            .init(frame: host.frame, unixSeconds: start + Double(host.frame) / 48_000)
        }
        return (host, conductor, AddressSpace([EngineFamily(CurrentEngine(host)), AmbientFamily(conductor)]))
    }

    /// Render `blocks` of 256 frames, pumping the conductor and calling `before` with each
    /// block's end frame; returns the ports asked for.
    func render(_ host: EngineHost, _ conductor: AmbientConductor, blocks: Int, ports: [ClientPort],
                before: (Int64) throws -> Void = { _ in }) throws -> [ClientPort: [Float]] {
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var out: [ClientPort: [Float]] = [:]
        for _ in 0..<blocks {
            try before(host.frame + 256)
            try conductor.pump()
            renderer.renderBlock(256) { io in
                for port in ports { out[port, default: []] += UnsafeBufferPointer(start: io[port], count: 256) }
            }
        }
        return out
    }

    /// Bounds read from a plugin are Floats: they print as written, not as their Double widening.
    func testNumbersPrintWithoutFloatNoise() {
        XCTAssertEqual(ControlDescriptor.format(Double(Float(0.4))), "0.4")
        XCTAssertEqual(ControlDescriptor.format(Double(Float(15))), "15")
        XCTAssertEqual(ControlDescriptor.format(0.1), "0.1")
        XCTAssertEqual(ControlDescriptor.format(-2.5), "-2.5")
    }

    func testEveryFamilyReadsValuesWithTheSameRules() throws {
        let (_, _, space) = try parts()
        for address in ["/haptic/source/beat", "/ambient/reverbEnabled"] {
            for spelling in [ControlValue.bool(true), .number(1), .text("on"), .text("T"), .text("true"), .text("yes")] {
                XCTAssertEqual(try space.parse(address, spelling).value, .bool(true), "\(address) \(spelling)")
            }
            XCTAssertEqual(try space.parse(address, .number(0.2), normalized: true).value, .bool(false))
            XCTAssertThrowsError(try space.parse(address, .number(2))) { XCTAssertTrue("\($0)".contains("expects on/off"), "\($0)") }
        }
        for (address, value) in [("/entrain/carrier", 5000.0), ("/ambient/tension", 2)] {
            XCTAssertThrowsError(try space.parse(address, .number(value))) { XCTAssertTrue("\($0)".contains("is out of range"), "\($0)") }
            XCTAssertThrowsError(try space.parse(address, .number(.nan))) { XCTAssertTrue("\($0)".contains("finite"), "\($0)") }
        }
        XCTAssertEqual(try space.parse("/ambient/tension", .text("0.337")).value, .number(0.34), "text numbers, snapped to the step")
        XCTAssertEqual(try space.parse("/entrain/mode", .number(2)).value, .text("isochronic"), "engine choices take an index")
        XCTAssertEqual(try space.parse("/entrain/mode", .text("Isochronic")).value, .text("isochronic"), "and a name, in any case")
        XCTAssertThrowsError(try space.parse("/entrain/mode", .text("stereo"))) {
            XCTAssertEqual("\($0)", "/entrain/mode: 'stereo' is not one of binaural, monaural, isochronic (or its index)")
        }
        XCTAssertThrowsError(try space.parse("/entrain/carrier", .text("fast"))) { XCTAssertTrue("\($0)".contains("expects a number in Hz")) }
        XCTAssertThrowsError(try space.parse("/ambient/reverbType", .number(1)), "Kessho choices take names only")
        XCTAssertThrowsError(try space.parse("/ambient/cofCurrentStep", .number(1))) { XCTAssertTrue("\($0)".contains("read-only")) }
        XCTAssertThrowsError(try space.parse("/nowhere", .number(1))) { XCTAssertTrue("\($0)".contains("unknown address")) }
    }

    /// A change to an ambient key time-tagged two seconds ahead reaches the sound on exactly its
    /// frame: a render with it and one without are identical up to that frame plus the output
    /// limiter's look-ahead, and differ from there.
    func testATimeTaggedAmbientChangeLandsOnItsFrameInARender() throws {
        let at: Int64 = 2 * 48_000 + 123
        try assertLandsOnItsFrame(at, lookahead: 256.0 / 48_000, sentAt: 0)
    }

    /// The live conductor queues the phrase grid 0.25 s ahead; a change tagged nearer than that
    /// (or sent for "now") still lands on its own frame, not behind what was queued.
    func testAChangeInsideTheConductorsLookaheadLandsOnItsFrame() throws {
        let at: Int64 = 2 * 48_000 + 123
        try assertLandsOnItsFrame(at, lookahead: 0.25, sentAt: at - 4_800)  // sent 0.1 s ahead
    }

    /// Renders with and without `/ambient/masterVolume` 0.1 tagged for `at`, sent when the engine
    /// reaches `sentAt`: identical up to `at` plus the output limiter's look-ahead, different from there.
    func assertLandsOnItsFrame(_ at: Int64, lookahead: Double, sentAt: Int64, line: UInt = #line) throws {
        func take(changing: Bool) throws -> [Float] {
            let (host, conductor, space) = try parts(lookahead: lookahead)
            try conductor.play(fadeSeconds: 0)
            return try render(host, conductor, blocks: 3 * 48_000 / 256, ports: [.ambientL]) { end in
                if changing, end - 256 <= sentAt, sentAt < end {
                    try space.set([ControlChange("/ambient/masterVolume", .number(0.1))], at: at, from: .person)
                }
            }[.ambientL]!
        }
        let plain = try take(changing: false), changed = try take(changing: true)
        XCTAssertGreaterThan(Measure.peak(plain[Int(at)...]), 0.01, "the engine is sounding there", line: line)
        let first = try XCTUnwrap(Measure.firstDifference(plain, changed), "the change was never heard", line: line)
        XCTAssertTrue((Int(at) + 71...Int(at) + 72).contains(first), "first difference at \(first), tagged \(at) (+71 look-ahead)", line: line)
    }

    /// While the engine is stopped, a tagged ambient change sets the state at once: it used to
    /// be queued for its far-off frame, and 64 of them filled the plugin's queue.
    func testTaggedAmbientChangesWhileStoppedApplyAtOnce() throws {
        let (host, conductor, space) = try parts()
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        let farAhead = Int64(9 * 365 * 86_400) * 48_000
        for k in 0..<200 {
            try space.set([ControlChange("/ambient/tension", .number(Double(k % 100) / 100))], at: farAhead + Int64(k), from: .person)
            if k % 10 == 9 { renderer.renderBlock(256) { _ in } }  // the engine runs meanwhile
        }
        XCTAssertEqual(conductor.state.number("tension"), 0.99)
        try conductor.play(fadeSeconds: 0)  // the queue is free for the engine's own events
    }

    static let stageSession = """
    { "stages": [
        { "duration": 1, "voices": [ { "carrier": 200 } ], "set": { "/haptic/source": "entrainment" } },
        { "duration": 1,
          "set": { "/led/source": "manual", "/led/manual": 0.7, "/haptic/source": "manual", "/haptic/intensity": 0.9,
                   "/ambient/masterVolume": 0.2, "/entrain/carrier": 300 } }
    ] }
    """

    /// A stage's "set" block reaches light, haptics, the ambient engine and the entrainment at
    /// the stage's first frame, measured on the ports.
    func testAStageSetsLightHapticAndAmbientValuesAtItsBoundary() throws {
        let (host, conductor, space) = try parts()
        let program = SessionProgram(try SessionDecoder.decode(Self.stageSession, file: "s.json").session, sampleRate: 48_000)
        let player = SessionPlayer(program: program, startFrame: 0)
        player.space = space
        var masterVolume: [Double] = []
        let out = try render(host, conductor, blocks: 2 * 48_000 / 256, ports: [.led, .hapticIntensity, .entrainmentL]) { end in
            try player.send(through: end, to: host)
            masterVolume.append(conductor.state.number("masterVolume") ?? -1)
        }
        let led = out[.led]!, intensity = out[.hapticIntensity]!, audio = out[.entrainmentL]!
        let boundary = 48_000, lookahead = 71
        XCTAssertEqual(Measure.peak(led[..<(boundary + lookahead)]), 0, "dark (strobe disarmed) until the stage")
        XCTAssertTrue((boundary + lookahead...boundary + lookahead + 1).contains(led.firstIndex { $0 > 0 } ?? 0),
                      "light from the stage's first frame (+ the sound's look-ahead; a glide's first step): \(led.firstIndex { $0 > 0 } ?? 0)")
        XCTAssertEqual(Double(led[(boundary + 9_600)...].min()!), 0.7, accuracy: 1e-4, "manual level 0.7")
        let level = try host.value(of: "/haptic/level")
        let swell = intensity[24_000..<boundary]
        XCTAssertGreaterThan(swell.max()! - swell.min()!, 0.3, "stage 1: the haptic swells with the entrainment")
        let steady = intensity[(boundary + 9_600)...]
        XCTAssertEqual(Double(steady.min()!), 0.9 * level, accuracy: 1e-3, "stage 2: the manual intensity alone")
        XCTAssertEqual(Double(steady.max()!), 0.9 * level, accuracy: 1e-3)
        XCTAssertEqual(Spectrum(Array(audio[(boundary + 4_800)...]), sampleRate: 48_000).peak(from: 150, to: 400).frequency, 300, accuracy: 1)
        XCTAssertEqual(masterVolume[(boundary / 256) - 2], 0.7, "the ambient key unchanged before the stage")
        XCTAssertEqual(masterVolume.last, 0.2, "and set in it")
    }

    /// A stage picks the lead's and drums' tempo source like any ambient value (not hashed).
    func testAStageSetsTheTempoSource() throws {
        let (host, conductor, space) = try parts()
        try conductor.play(fadeSeconds: 0)
        let session = """
        { "stages": [ { "duration": 1 }, { "duration": 1, "set": { "/ambient/tempoSource": "beat" } } ] }
        """
        let player = SessionPlayer(program: SessionProgram(try SessionDecoder.decode(session, file: "s.json").session, sampleRate: 48_000),
                                   startFrame: 0)
        player.space = space
        var sources: [AmbientTempoSource] = []
        _ = try render(host, conductor, blocks: 2 * 48_000 / 256, ports: [.led]) { end in
            try player.send(through: end, to: host)
            sources.append(conductor.tempoSource)
        }
        XCTAssertEqual(sources.first, .phrase)
        XCTAssertEqual(sources.last, .beat)
        XCTAssertNil(conductor.state["tempoSource"])
    }

    /// With a linear transition, numbers slide over the stage, in every family.
    func testALinearStageSlidesEveryFamilysNumbers() throws {
        let (host, conductor, space) = try parts()
        try conductor.play(fadeSeconds: 0)
        let session = """
        { "stages": [ { "duration": 1, "set": { "/led/source": "manual" } },
                      { "duration": 2, "transition": "linear", "set": { "/led/manual": 1, "/ambient/masterVolume": 0.2 } } ] }
        """
        let player = SessionPlayer(program: SessionProgram(try SessionDecoder.decode(session, file: "s.json").session, sampleRate: 48_000),
                                   startFrame: 0)
        player.space = space
        var volumeAtMiddle = 0.0
        let led = try render(host, conductor, blocks: 3 * 48_000 / 256, ports: [.led]) { end in
            try player.send(through: end, to: host)
            if end == 96_000 { volumeAtMiddle = conductor.state.number("masterVolume") ?? -1 }
        }[.led]!
        XCTAssertEqual(Double(led[96_000 + 71]), 0.5, accuracy: 0.01, "halfway through the stage, halfway there")
        XCTAssertEqual(volumeAtMiddle, 0.45, accuracy: 0.03, "the ambient key slides too (0.7 → 0.2)")
        XCTAssertEqual(conductor.state.number("masterVolume") ?? 0, 0.2, accuracy: 0.02, "at the stage's end (50 ms morph steps)")
    }

    /// A set block is checked at load, each problem at its file:line:column; arming is refused.
    func testSetBlockProblemsComeWithTheirPosition() {
        let session = """
        { "stages": [ { "duration": 1, "set": {
            "/led/arm": 1,
            "/ambient/tension": 3,
            "/led/source": "disco",
            "/no/where": 1 } } ] }
        """
        XCTAssertThrowsError(try SessionDecoder.decode(session, file: "s.json")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("s.json:2:17: error: stage 1: \"set\": /led/arm: only a person may set this (never a file)"), text)
            XCTAssertTrue(text.contains("s.json:3:25: error: stage 1: \"set\": /ambient/tension: 3 is out of range 0–1"), text)
            XCTAssertTrue(text.contains("s.json:4:20: error: stage 1: \"set\": /led/source: unknown name 'disco'"), text)
            XCTAssertTrue(text.contains("s.json:5:18: error: stage 1: \"set\": /no/where: unknown address"), text)
        }
    }

    /// Written back (import, playlists), a stage keeps its set block.
    func testTheSetBlockSurvivesWritingTheSessionBack() throws {
        let session = try SessionDecoder.decode(Self.stageSession, file: "s.json").session
        let again = try SessionDecoder.decode(SessionEncoder.json(session), file: "again.json").session
        XCTAssertEqual(again.stages[1].sets, session.stages[1].sets)
        XCTAssertEqual(again.stages[1].sets.count, 6)
    }

    /// A preset saved over OSC holds every family (never the strobe's arming nor the drift
    /// position) and brings every family back.
    func testAPresetRoundTripCoversTheAmbientKeys() throws {
        let (host, conductor, space) = try parts()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = Library(dataDirectory: folder)
        let router = OSCRouter(host: { host }, frame: { _ in nil }, status: { [] }, library: library, space: space)
        func send(_ address: String, _ arguments: [OSCValue]) {
            XCTAssertEqual(router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments))), [], address)
        }
        send("/entrain/carrier", [.float(333)])
        send("/ambient/tension", [.float(0.61)])
        send("/ambient/reverbType", [.string("hall")])
        send("/led/arm", [.int32(1)])
        send("/preset/save", [.string("Both")])
        let file = try String(contentsOf: folder.appendingPathComponent("presets/Both.json"), encoding: .utf8)
        XCTAssertTrue(file.contains("\"/ambient/tension\": 0.61"), file)
        XCTAssertFalse(file.contains("/led/arm"))
        XCTAssertFalse(file.contains("cofCurrentStep"))
        send("/entrain/carrier", [.float(200)])
        send("/ambient/tension", [.float(0.2)])
        send("/ambient/reverbType", [.string("plate")])
        send("/preset/load", [.string("Both"), .float(0)])
        XCTAssertEqual(try host.value(of: "/entrain/carrier"), 333)
        XCTAssertEqual(conductor.state.number("tension"), 0.61)
        XCTAssertEqual(conductor.state.string("reverbType"), "hall")
        XCTAssertEqual(try host.value(of: "/led/arm"), 1, "the arming is the run's, untouched by a preset")
    }
}

/// Families that come and go while running (a hosted plugin) and values that are published, not
/// set (beat, HRV metrics): the router, the feedback and the schema pick them up with no code of
/// their own. The family here publishes one level, as a metrics family would.
final class RuntimeFamilyTests: XCTestCase {
    final class PublishedLevel: AddressFamily, @unchecked Sendable {  // `level` is set by the test thread only
        let name = "published"
        var level = 0.25
        let descriptors = [ControlDescriptor("/published/level", .number(range: 0...1, step: nil, curve: .linear, integer: false),
                                             default: .number(0), glide: nil, readOnly: true, "a level the client publishes")]
        func descriptor(for address: String) -> ControlDescriptor? { descriptors.first { $0.address == address } }
        func value(of address: String) -> ControlValue? { descriptor(for: address) != nil ? .number(level) : nil }
        func set(_ changes: [ControlChange], at frame: Int64?) throws { throw ControlError(changes[0].address, "is read-only") }
    }

    func testAFamilyAddedWhileRunningIsRoutedFedBackAndDescribed() throws {
        let host = try TestEngine.host()
        let space = AddressSpace([EngineFamily(CurrentEngine(host))])
        let router = OSCRouter(host: { host }, frame: { _ in nil }, status: { [] }, space: space)
        let hub = FeedbackHub(space: space, meter: PeakMeter(), fixed: [],
                              limits: .init(lifetime: 600, bytesPerSecond: 100_000_000))  // no pacing here
        XCTAssertTrue(hub.subscribe(.udp(SocketAddress(host: "127.0.0.1", port: 9)!), now: 0))
        func handle(_ address: String, _ arguments: [OSCValue] = []) -> [OSCRouter.Action] {
            router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments)))
        }
        func published(_ now: Double) -> [OSCMessage] { FeedbackHub.decoded(hub.tick(now: now)).filter { $0.address.hasPrefix("/published/") } }
        XCTAssertEqual(handle("/published/level"), [.error(address: "/published/level", reason: "unknown address")])
        _ = published(1)
        let family = PublishedLevel()
        let before = space.generation
        space.add(family)
        XCTAssertGreaterThan(space.generation, before, "surfaces that cache the tree can tell")
        XCTAssertEqual(handle("/published/level"), [.reply(OSCMessage("/published/level", [.float(0.25)]))])
        XCTAssertEqual(handle("/published/level/norm"), [.reply(OSCMessage("/published/level/norm", [.float(0.25)]))])
        XCTAssertEqual(handle("/published/level", [.float(0.5)]), [.error(address: "/published/level", reason: "is read-only")])
        XCTAssertEqual(published(2), [OSCMessage("/published/level", [.float(0.25)]), OSCMessage("/published/level/norm", [.float(0.25)])],
                       "a family that appears is sent whole")
        family.level = 0.75
        XCTAssertEqual(published(3).first, OSCMessage("/published/level", [.float(0.75)]), "then each change")
        XCTAssertTrue(OSCSchema.markdown(families: space.families).contains("| `/published/level` | f |  | 0 … 1 | 0 | lin | — | a level the client publishes (read-only) |"))
        space.remove(named: "published")
        XCTAssertEqual(handle("/published/level"), [.error(address: "/published/level", reason: "unknown address")])
    }
}
