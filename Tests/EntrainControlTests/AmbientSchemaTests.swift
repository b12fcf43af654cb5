import EntrainAddressSpace
import EntrainAmbient
@testable import EntrainControl
import Kessho
import TestSupport
import XCTest

/// Where the ambient keys are documented and fed back: every key, with what the engine does with it.
final class AmbientSchemaTests: XCTestCase {
    func testEveryKeyIsDocumentedWithItsStatus() {
        let schema = OSCSchema.markdown(families: try! OSCSchema.standardFamilies())
        XCTAssertEqual(KesshoParameters.all.count, 403)
        for p in KesshoParameters.all {
            // A key that does nothing has no row, no address and no fader anywhere (it had 44).
            XCTAssertEqual(schema.contains("| `/ambient/\(p.key)` |"), !AmbientKeyStatus.unaddressed.contains(p.key), p.key)
        }
        XCTAssertEqual(AmbientKeyStatus.unaddressed.count, 23)
        XCTAssertTrue(schema.contains("| `/ambient/drumKickMorphAuto` |"))
        XCTAssertFalse(schema.contains("stored only"))
    }

    /// The stored-only keys: refused over OSC like any unknown address, ignored in an older preset
    /// file that names them, and still kept in the state a Kessho preset loads (the phrase seed).
    func testStoredOnlyKeysHaveNoAddressButOlderFilesStillLoad() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        for key in ["leadVibratoDepth", "oceanSampleLevel", "drumClickStereoWidth", "drumEuclid2VelocityMin", "randomness"] {
            XCTAssertNil(space.lookup("/ambient/\(key)"), key)
        }
        XCTAssertNotNil(space.lookup("/ambient/drumSubMorphAuto"))
        let old = #"{ "format": "entrain-preset/1", "values": { "/ambient/leadVibratoDepth": 0.4, "/ambient/density": 30 } }"#
        XCTAssertEqual(try Presets.changes(old, file: "old.json").map(\.address), ["/ambient/density"])
    }

    func testStatusFollowsTheSections() {
        XCTAssertEqual(AmbientKeyStatus.status(of: "masterVolume"), .rendered(nil))
        XCTAssertEqual(AmbientKeyStatus.status(of: "oceanFoam"), .rendered(nil))
        XCTAssertEqual(AmbientKeyStatus.status(of: "grainSize"), .rendered(nil))
        for key in ["randomness", "filterResonance", "reverbEngine", "maxGrains", "oceanSampleLevel", "leadTimbre",
                    "leadVibratoDepth", "lead1MorphMode", "drumEuclidSwing", "drumClickStereoWidth",
                    "drumEuclid2VelocityMin"] {
            guard case .storedOnly = AmbientKeyStatus.status(of: key) else { XCTFail(key); continue }
        }
        for key in ["leadReverbSend", "lead1Density", "leadEuclid2Steps", "drumEuclid3Hits", "drumKickFreq", "leadEuclideanTempo",
                    "synthChordSequencerEnabled", "drumLevel", "lead2PresetD", "drumMembraneMaterial", "drumDelayNoteL", "drumNoiseBreath",
                    "drumMembraneExcPos", "drumBeepLoPluckDamp", "drumBeepHiFeedback", "drumClickExciterColor"] {
            XCTAssertEqual(AmbientKeyStatus.status(of: key), .rendered(nil), key)
        }
        guard case .rendered(_?) = AmbientKeyStatus.status(of: "reverbQuality") else { return XCTFail("reverbQuality") }
        guard case .rendered(_?) = AmbientKeyStatus.status(of: "randomWalkSpeed") else { return XCTFail("randomWalkSpeed") }
        guard case .readOnly = AmbientKeyStatus.status(of: "cofCurrentStep") else { return XCTFail("cofCurrentStep") }
        for field in ["MorphAuto", "MorphSpeed", "MorphMode"] {
            guard case .rendered(_?) = AmbientKeyStatus.status(of: "drumKick\(field)") else { return XCTFail(field) }
        }
        // Outside the lead and drum sections, exactly these are not heard.
        let stored = KesshoParameters.all.filter {
            if case .storedOnly = AmbientKeyStatus.status(of: $0.key) { true } else { false }
        }.map(\.key)
        XCTAssertEqual(Set(stored.filter { !$0.hasPrefix("lead") && !$0.hasPrefix("drum") }),
                       ["randomness", "filterResonance", "reverbEngine", "maxGrains", "oceanSampleEnabled", "oceanSampleLevel"])
        // Each stored-only key says why; most of the 403 are heard.
        XCTAssertLessThan(stored.count, 75)
        for key in stored {
            guard case .storedOnly(let why) = AmbientKeyStatus.status(of: key) else { continue }
            XCTAssertFalse(why.isEmpty, key)
        }
    }

    /// Changes go to subscribers on /ambient/KEY and /norm, whatever made them: the feedback hub
    /// compares the address space's snapshot, the ambient family's among the others.
    func testChangedKeysAreFedBack() throws {
        let host = try TestEngine.host()
        let conductor = AmbientConductor(host: host) { .init(frame: host.frame, unixSeconds: 1_770_000_000) }
        let hub = FeedbackHub(space: AddressSpace([AmbientFamily(conductor)]), meter: PeakMeter(), fixed: [],
                              limits: .init(lifetime: 600, bytesPerSecond: 100_000_000))  // no pacing here
        XCTAssertTrue(hub.subscribe(.udp(SocketAddress(host: "127.0.0.1", port: 9)!), now: 0))
        let keys = KesshoParameters.all.filter { !AmbientKeyStatus.unaddressed.contains($0.key) }
        let faders = keys.filter {
            switch $0.kind { case .number: $0.loadRange != nil; case .bool, .choice: true; case .text: false }
        }
        // + /ambient/tempoSource and the 12 drum evolve settings, and their /norm (not Kessho keys).
        let extra = 2 + 2 * 12
        XCTAssertEqual(hub.fullState().count, keys.count + faders.count + extra, "every key, and /norm for the ranged, toggles and choices")
        func ambient(_ now: Double) -> [OSCMessage] {
            FeedbackHub.decoded(hub.tick(now: now)).filter { $0.address.hasPrefix("/ambient/") }.sorted { $0.address < $1.address }
        }
        XCTAssertEqual(ambient(1).count, keys.count + faders.count + extra, "the subscribe's full state first")
        XCTAssertEqual(ambient(2), [])
        try conductor.set("density", .number(40))
        try conductor.set("reverbEnabled", .bool(false))
        XCTAssertEqual(ambient(3), [
            OSCMessage("/ambient/density", [.float(40)]), OSCMessage("/ambient/density/norm", [.float(Float(35.0 / 75))]),
            OSCMessage("/ambient/reverbEnabled", [.false]), OSCMessage("/ambient/reverbEnabled/norm", [.float(0)]),
        ])
        XCTAssertEqual(ambient(4), [])
    }

    /// The tempo source is a member of the ambient family: set and read like a key, refused when
    /// unknown, and never part of the hashed Kessho state (also when given in a start state, as
    /// `--set /ambient/tempoSource=…` gives it).
    func testTempoSourceIsAnAmbientAddress() throws {
        let host = try TestEngine.host()
        // As `--set /ambient/tempoSource=jack --set /ambient/density=40` gives it: the Kessho key
        // for the state, the conductor's own setting typed, apart.
        let given = [ControlChange("/ambient/tempoSource", .text("jack")), ControlChange("/ambient/density", .number(40))]
        XCTAssertEqual(AmbientFamily.settings(given), [.tempoSource(.jack)])
        XCTAssertEqual(AmbientFamily.keyed(given).map(\.key), ["density"])
        var start = KesshoState.defaults
        for (key, value) in AmbientFamily.keyed(given) { start[key] = value }
        let conductor = AmbientConductor(host: host, state: start, settings: AmbientFamily.settings(given)) {
            .init(frame: host.frame, unixSeconds: 1_770_000_000)
        }
        XCTAssertEqual(conductor.tempoSource, .jack)
        XCTAssertNil(conductor.state["tempoSource"], "not hashed")
        let space = AddressSpace([AmbientFamily(conductor)])
        XCTAssertEqual(try space.value(of: "/ambient/tempoSource"), .text("jack"))
        try space.set([try space.parse("/ambient/tempoSource", .text("beat"))], at: nil, from: .person)
        XCTAssertEqual(conductor.tempoSource, .beat)
        XCTAssertNil(conductor.state["tempoSource"])
        XCTAssertThrowsError(try space.parse("/ambient/tempoSource", .text("midi")))
    }

    /// A preset file naming the conductor's settings among its Kessho keys (the loader keeps
    /// unknown keys): the family takes them out, typed, and the state keeps only Kessho keys.
    func testConductorSettingsInAPresetFileAreTakenOut() {
        var state = KesshoState.defaults
        state["tempoSource"] = .string("beat")
        state["drumEuclid2EvolveEvery"] = .number(8)
        state["drumEuclid2Evolve"] = .bool(true)
        XCTAssertEqual(AmbientFamily.takeSettings(from: &state).settings,
                       [.tempoSource(.beat), .evolve(lane: 1, .on(true)), .evolve(lane: 1, .everyBars(8))])
        XCTAssertEqual(state, .defaults)
    }

    /// A tempo source time-tagged beyond the lookahead waits with the conductor; stopping first
    /// applies it as a setting, never as a key of the hashed state.
    func testATaggedTempoSourceNeverReachesTheState() throws {
        let host = try TestEngine.host()
        let conductor = AmbientConductor(host: host) { .init(frame: host.frame, unixSeconds: 1_770_000_000) }
        let space = AddressSpace([AmbientFamily(conductor)])
        try conductor.play()
        try space.set([try space.parse("/ambient/tempoSource", .text("beat"))], at: 10 * 48_000, from: .schedule)
        XCTAssertEqual(conductor.tempoSource, .phrase, "not due yet")
        try conductor.stop()
        XCTAssertEqual(conductor.tempoSource, .beat)
        XCTAssertNil(conductor.state["tempoSource"])
    }

    /// The drum lanes' evolve settings are ambient addresses too: off by default, set and read
    /// like keys, checked against their ranges, never in the hashed state.
    func testDrumEvolveSettingsAreAmbientAddresses() throws {
        let host = try TestEngine.host()
        let conductor = AmbientConductor(host: host) { .init(frame: host.frame, unixSeconds: 1_770_000_000) }
        let space = AddressSpace([AmbientFamily(conductor)])
        XCTAssertEqual(try space.value(of: "/ambient/drumEuclid3Evolve"), .bool(false))
        XCTAssertEqual(try space.value(of: "/ambient/drumEuclid3EvolveEvery"), .number(4))
        try space.set([try space.parse("/ambient/drumEuclid3Evolve", .bool(true)),
                       try space.parse("/ambient/drumEuclid3EvolveEvery", .number(8)),
                       try space.parse("/ambient/drumEuclid3EvolveIntensity", .number(0.25))], at: nil, from: .person)
        XCTAssertEqual(try space.value(of: "/ambient/drumEuclid3Evolve"), .bool(true))
        XCTAssertEqual(try space.value(of: "/ambient/drumEuclid3EvolveEvery"), .number(8))
        XCTAssertEqual(try space.value(of: "/ambient/drumEuclid3EvolveIntensity"), .number(0.25))
        XCTAssertNil(conductor.state["drumEuclid3Evolve"], "not hashed")
        XCTAssertThrowsError(try space.parse("/ambient/drumEuclid3EvolveEvery", .number(0)))
        XCTAssertThrowsError(try space.parse("/ambient/drumEuclid3EvolveIntensity", .number(2)))
        XCTAssertThrowsError(try space.parse("/ambient/drumEuclid5Evolve", .bool(true)))
    }
}

extension FeedbackHub {
    /// The messages in a tick's packets (every target's), in order.
    static func decoded(_ packets: [(target: Peer, packet: [UInt8])]) -> [OSCMessage] {
        packets.flatMap { item in
            item.packet.withUnsafeBytes { (try? OSCCodec.decode($0)) ?? [] }.map(\.message)
        }
    }
}
