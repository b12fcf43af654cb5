import EntrainAddressSpace
import EntrainEngine
import EntrainLV2
import TestSupport
import XCTest

/// Real Debian plugins (swh-lv2, x42-plugins; installed by scripts/install-deps.sh) on the
/// entrainment bus, rendered offline through the same engine code as the live client.
final class InsertChainTests: XCTestCase {
    static let amp = "http://plugin.org.uk/swh-plugins/amp"
    static let lowpass = "http://plugin.org.uk/swh-plugins/lowpass_iir"
    static let latency = "http://plugin.org.uk/swh-plugins/artificialLatency"
    /// Binaural 200 / 210 Hz at half volume, no fades: a steady tone on both channels.
    static let tone = ["/entrain/carrier": "200", "/entrain/beat": "10", "/entrain/volume": "0.5"]

    /// A host, its chains, and a recording of the entrainment pair rendered in steps.
    final class Rig {
        let host: EngineHost
        let chains: InsertChains
        let renderer: OfflineRenderer
        var left: [Float] = [], right: [Float] = []

        init(_ settings: [String: String] = InsertChainTests.tone) throws {
            host = try TestEngine.host(settings)
            chains = InsertChains(host: host)
            renderer = OfflineRenderer(host: host, blockSize: 256)
        }

        func render(seconds: Double) {
            renderer.render(frames: Int(seconds * host.sampleRate)) { l, r in
                left.append(contentsOf: l)
                right.append(contentsOf: r)
                chains.collect()
            }
        }

        /// Level of the last `seconds` rendered, dB re full scale, per channel.
        func level(last seconds: Double) -> (Double, Double) {
            let n = Int(seconds * host.sampleRate)
            return (Measure.decibels(Measure.rms(left.suffix(n))), Measure.decibels(Measure.rms(right.suffix(n))))
        }
    }

    func testGainPluginChangesTheLevelByItsSettingOnBothChannels() throws {
        let dry = try Rig(), wet = try Rig()
        let slot = try wet.chains.add(Self.amp, to: .entrainment)
        XCTAssertEqual(slot, 0)
        let gain = try XCTUnwrap(wet.chains.chain(.entrainment)[0].plugin.ports.first { $0.symbol == "gain" })
        try wet.chains.setControl(gain.index, to: -12, slot: 0, on: .entrainment)
        dry.render(seconds: 0.5)
        wet.render(seconds: 0.5)
        let (dl, dr) = dry.level(last: 0.25), (wl, wr) = wet.level(last: 0.25)
        XCTAssertEqual(wl - dl, -12, accuracy: 0.05, "left")
        XCTAssertEqual(wr - dr, -12, accuracy: 0.05, "right")
    }

    func testControlsAreAFamilyOfTheAddressSpace() throws {
        let dry = try Rig(), wet = try Rig()
        let space = AddressSpace()
        let family = FxFamily(wet.chains)
        space.add(family)
        try wet.chains.add(Self.amp, to: .entrainment)
        let gain = try XCTUnwrap(space.lookup("/fx/entrainment/1/gain")).descriptor
        XCTAssertTrue(gain.summary.hasPrefix("Simple amplifier: Amps gain"), gain.summary)
        guard case .number(let range?, _, _, _) = gain.kind else { return XCTFail("gain should be a ranged number") }
        XCTAssertEqual(range, -70...70)
        XCTAssertThrowsError(try space.parse("/fx/entrainment/1/gain", .number(71)))
        try space.set([try space.parse("/fx/entrainment/1/gain", .text("-6"))], from: .person)
        XCTAssertEqual(try space.value(of: "/fx/entrainment/1/gain"), .number(-6))
        XCTAssertNotNil(space.lookup("/fx/entrainment/1/bypass"))
        XCTAssertNil(space.lookup("/fx/entrainment/2/gain"))
        dry.render(seconds: 0.5)
        wet.render(seconds: 0.5)
        XCTAssertEqual(wet.level(last: 0.25).0 - dry.level(last: 0.25).0, -6, accuracy: 0.05)
    }

    func testLowpassCutsHighTonesAndKeepsLowOnes() throws {
        func attenuation(carrier: String) throws -> Double {
            let settings = ["/entrain/carrier": carrier, "/entrain/beat": "0", "/entrain/volume": "0.5"]
            let dry = try Rig(settings), wet = try Rig(settings)
            try wet.chains.add(Self.lowpass, to: .entrainment)
            let ports = wet.chains.chain(.entrainment)[0].plugin.ports
            // Its cutoff's bounds are fractions of the sample rate; the host shows them in Hz.
            let cutoff = ports.first { $0.symbol == "cutoff" }!
            XCTAssertEqual(cutoff.maximum ?? 0, 0.45 * 48000, accuracy: 1)
            try wet.chains.setControl(cutoff.index, to: 1000, slot: 0, on: .entrainment)
            try wet.chains.setControl(ports.first { $0.symbol == "stages" }!.index, to: 4, slot: 0, on: .entrainment)
            dry.render(seconds: 0.5)
            wet.render(seconds: 0.5)
            return wet.level(last: 0.25).0 - dry.level(last: 0.25).0
        }
        XCTAssertEqual(try attenuation(carrier: "200"), 0, accuracy: 1)
        XCTAssertLessThan(try attenuation(carrier: "1500"), -20)
    }

    /// x42-eq (fil4), a stereo parametric EQ with atom ports: +12 dB at 1 kHz lifts a 1 kHz tone
    /// by about that and leaves 200 Hz nearly alone.
    func testParametricEQBoostsWhereItIsSet() throws {
        func change(carrier: String) throws -> Double {
            let settings = ["/entrain/carrier": carrier, "/entrain/beat": "0", "/entrain/volume": "0.1"]
            let dry = try Rig(settings), wet = try Rig(settings)
            let space = AddressSpace([FxFamily(wet.chains)])
            try wet.chains.add("http://gareus.org/oss/lv2/fil4#stereo", to: .entrainment)
            try space.set(["freq1": 1000.0, "gain1": 12, "q1": 0.5].map { try space.parse("/fx/entrainment/1/\($0.key)", .number($0.value)) }, from: .person)
            dry.render(seconds: 1)
            wet.render(seconds: 1)
            let (dl, dr) = dry.level(last: 0.25), (wl, wr) = wet.level(last: 0.25)
            XCTAssertEqual(wl - dl, wr - dr, accuracy: 0.05, "both channels alike")
            return wl - dl
        }
        XCTAssertEqual(try change(carrier: "1000"), 12, accuracy: 1)
        XCTAssertEqual(try change(carrier: "200"), 0, accuracy: 1.5)
    }

    func testCeilingHoldsBehindAPluginPushingFortyDecibels() throws {
        let rig = try Rig()
        try rig.chains.add(Self.amp, to: .entrainment)
        try rig.chains.setControl(0, to: 40, slot: 0, on: .entrainment)
        rig.render(seconds: 1)
        let ceiling = Float(pow(10, -1.0 / 20))
        XCTAssertLessThanOrEqual(max(Measure.peak(rig.left), Measure.peak(rig.right)), ceiling)
        XCTAssertGreaterThan(Measure.peak(rig.left), ceiling * 0.95, "the plugin must really push past the ceiling")
    }

    /// Add, bypass, un-bypass and remove while the tone plays: the largest sample step never
    /// passes the steady tone's own (a switch without a crossfade jumps by up to 3/4 of the
    /// amplitude, thirty times more).
    func testAddBypassAndRemoveWithoutAClick() throws {
        let dry = try Rig()
        dry.render(seconds: 1.6)
        let rig = try Rig()
        rig.render(seconds: 0.3)
        try rig.chains.add(Self.amp, to: .entrainment)
        try rig.chains.setControl(0, to: -12, slot: 0, on: .entrainment)
        rig.render(seconds: 0.3)
        XCTAssertEqual(rig.level(last: 0.1).0 - dry.level(last: 1.3).0, -12, accuracy: 0.1, "added")
        try rig.chains.setHeard(false, slot: 0, on: .entrainment)
        rig.render(seconds: 0.3)
        XCTAssertEqual(rig.level(last: 0.1).0 - dry.level(last: 1.3).0, 0, accuracy: 0.1, "bypassed")
        try rig.chains.setHeard(true, slot: 0, on: .entrainment)
        rig.render(seconds: 0.3)
        XCTAssertEqual(rig.level(last: 0.1).0 - dry.level(last: 1.3).0, -12, accuracy: 0.1, "back")
        try rig.chains.remove(0, from: .entrainment)
        rig.render(seconds: 0.4)
        XCTAssertEqual(rig.level(last: 0.1).0 - dry.level(last: 1.3).0, 0, accuracy: 0.1, "removed")
        XCTAssertTrue(rig.chains.chain(.entrainment).isEmpty)
        for (channel, steady) in [(rig.left, dry.left), (rig.right, dry.right)] {
            XCTAssertLessThanOrEqual(Measure.largestJump(channel[...]), Measure.largestJump(steady[...]) * 1.05)
        }
    }

    /// Dragonfly Plate needs the worker extension (it is refused without it): fully wet, it
    /// sounds, and its tail rings on after the source has stopped.
    func testPluginNeedingTheWorkerRunsAndRingsOn() throws {
        let rig = try Rig()
        let space = AddressSpace([FxFamily(rig.chains)])
        try rig.chains.add("urn:dragonfly:plate", to: .entrainment)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let threads = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        XCTAssertTrue(threads.contains("entrain-lv2work\n"), "its worker runs on a named thread: \(threads)")
        try space.set([try space.parse("/fx/entrainment/1/dry_level", .number(0)),
                       try space.parse("/fx/entrainment/1/early_level", .number(100)),
                       try space.parse("/fx/entrainment/1/decay", .number(4))], from: .person)
        rig.render(seconds: 1)
        XCTAssertGreaterThan(rig.level(last: 0.5).0, -30, "the reverb sounds")
        try rig.host.stop()
        rig.render(seconds: 0.3)
        XCTAssertGreaterThan(rig.level(last: 0.1).0, -50, "its tail rings after the source stopped")
    }

    func testMoveReordersTheChain() throws {
        let rig = try Rig()
        try rig.chains.add(Self.amp, to: .entrainment)
        try rig.chains.add(Self.lowpass, to: .entrainment)
        try rig.chains.move(1, to: 0, on: .entrainment)
        XCTAssertEqual(rig.chains.chain(.entrainment).map(\.plugin.uri), [Self.lowpass, Self.amp])
        XCTAssertThrowsError(try rig.chains.move(0, to: 2, on: .entrainment))
        rig.render(seconds: 0.2)
    }

    func testPluginLatencyIsReported() throws {
        let rig = try Rig()
        XCTAssertEqual(rig.chains.latencyFrames, 0)
        try rig.chains.add(Self.latency, to: .entrainment)
        try rig.chains.setControl(0, to: 10, slot: 0, on: .entrainment)  // 10 ms
        rig.render(seconds: 0.1)
        XCTAssertEqual(rig.chains.latencyFrames, 480)
        let before = rig.host.outputLatency
        XCTAssertTrue(rig.chains.publishLatency())
        XCTAssertFalse(rig.chains.publishLatency(), "published once")
        XCTAssertEqual(rig.host.outputLatency, before + 480)
    }

    func testUnloadableAndUnsupportedPluginsAreRefusedWithTheReason() throws {
        let rig = try Rig()
        XCTAssertThrowsError(try rig.chains.add("http://example.org/no-such-plugin", to: .entrainment)) { error in
            XCTAssertEqual(error as? LV2Error, .notInstalled("http://example.org/no-such-plugin"))
        }
        // A plugin whose data requires instance access, written here (no installed plugin
        // requires a feature entrain lacks).
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-test-\(getpid())")
        defer { try? FileManager.default.removeItem(at: parent) }
        rig.chains.world.load(bundle: try LV2TestBundle.needingInstanceAccess(in: parent))
        XCTAssertThrowsError(try rig.chains.add(LV2TestBundle.uri, to: .entrainment)) { error in
            XCTAssertEqual("\(error)", LV2TestBundle.refusal)
        }
        XCTAssertTrue(rig.chains.chain(.entrainment).isEmpty)
    }
}

/// A chain stored as a preset stores it (plugins, values, bypass) and loading it into a fresh
/// client brings back the same chain, which sounds the same.
final class ChainPresetTests: XCTestCase {
    func testChainInAPresetComesBackWithItsControlValues() throws {
        let first = try InsertChainTests.Rig()
        let space = AddressSpace([FxFamily(first.chains)])
        try first.chains.add(InsertChainTests.amp, to: .entrainment)
        try first.chains.add(InsertChainTests.lowpass, to: .entrainment)
        try space.set([try space.parse("/fx/entrainment/1/gain", .number(-9)),
                       try space.parse("/fx/entrainment/2/cutoff", .number(2000)),
                       try space.parse("/fx/entrainment/2/bypass", .bool(true))], from: .person)
        let stored = space.presetSnapshot()
        XCTAssertEqual(stored.map(\.address), ["/fx/entrainment/chain", "/fx/ambient/chain", "/fx/haptic/chain"], "the chain whole, no slot addresses")
        let text = try XCTUnwrap(stored.first?.value.text)
        XCTAssertTrue(text.hasPrefix("\(InsertChainTests.amp) gain=-9.0 | \(InsertChainTests.lowpass) cutoff=2000.0 "), text)
        XCTAssertTrue(text.hasSuffix("bypass=on"), text)

        let second = try InsertChainTests.Rig()
        let restored = AddressSpace([FxFamily(second.chains)])
        try restored.set(stored.map { try restored.parse($0.address, $0.value) }, from: .person)
        XCTAssertEqual(second.chains.text(.entrainment), first.chains.text(.entrainment))
        XCTAssertEqual(try restored.value(of: "/fx/entrainment/1/gain"), .number(-9))
        XCTAssertEqual(try restored.value(of: "/fx/entrainment/2/bypass"), .bool(true))
        first.render(seconds: 0.5)
        second.render(seconds: 0.5)
        XCTAssertEqual(second.level(last: 0.25).0, first.level(last: 0.25).0, accuracy: 0.01, "the restored chain sounds like the first")
        // Setting the same plugins again keeps the instances and only changes values.
        let before = second.chains.chain(.entrainment).map { ObjectIdentifier($0) }
        try restored.set([try restored.parse("/fx/entrainment/chain", .text("\(InsertChainTests.amp) gain=-3 | \(InsertChainTests.lowpass)"))], from: .person)
        XCTAssertEqual(second.chains.chain(.entrainment).map { ObjectIdentifier($0) }, before)
        XCTAssertEqual(try restored.value(of: "/fx/entrainment/1/gain"), .number(-3))
        XCTAssertThrowsError(try restored.set([try restored.parse("/fx/entrainment/chain", .text("\(InsertChainTests.amp) gain=99"))], from: .person)) { error in
            XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
        }
    }
}
