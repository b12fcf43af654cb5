import EntrainEngine
import EntrainLV2
import TestSupport
import XCTest

/// The haptic bus takes inserts too: mono, a 1→1 plugin as one instance, before the haptic
/// ceiling (which stays last); a stereo plugin is refused with the reason.
final class HapticInsertTests: XCTestCase {
    static let amp = "http://plugin.org.uk/swh-plugins/amp"
    static let stereoLimiter = "http://drobilla.net/plugins/mda/Limiter"
    /// A steady 30 Hz drive at a quarter of full scale (manual intensity 0.5 × level 0.5).
    static let drive = ["/haptic/source/entrainment": "0", "/haptic/source/manual": "1", "/haptic/intensity": "0.5",
                        "/haptic/level": "0.5", "/haptic/sharpness": "0"]

    /// The haptic port over `seconds`, with `chain` on the haptic bus.
    private func haptic(_ chain: String, seconds: Double = 1, settings: [String: String] = [:]) throws -> [Float] {
        let host = try TestEngine.host(Self.drive.merging(settings) { $1 })
        let chains = InsertChains(host: host)
        if !chain.isEmpty { try chains.replace(.haptic, with: ChainText(parsing: chain)) }
        XCTAssertEqual(chains.chain(.haptic).count, chain.isEmpty ? 0 : 1)
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var out: [Float] = []
        for _ in 0..<Int(seconds * host.sampleRate / 256) {
            renderer.renderBlock(256) { io in out += UnsafeBufferPointer(start: io[.haptic], count: 256) }
            chains.collect()
        }
        return out
    }

    func testAGainPluginChangesTheHapticLevelByItsSetting() throws {
        let dry = try haptic(""), wet = try haptic("\(Self.amp) gain=-9")
        let change = Measure.decibels(Measure.rms(wet.suffix(24000))) - Measure.decibels(Measure.rms(dry.suffix(24000)))
        XCTAssertEqual(change, -9, accuracy: 0.05)
        XCTAssertGreaterThan(Measure.rms(dry.suffix(24000)), 0.05, "the drive is there")
    }

    func testTheHapticCeilingHoldsAfterAPluginPushing40dB() throws {
        let ceiling = Float(pow(10, -6.0 / 20))
        let wet = try haptic("\(Self.amp) gain=40", settings: ["/master/ceiling": "-6"])
        XCTAssertLessThanOrEqual(Measure.peak(wet), ceiling + 1e-4)
        XCTAssertEqual(Measure.peak(wet.suffix(24000)), ceiling, accuracy: 1e-4, "pushed against the ceiling")
    }

    func testAStereoPluginIsRefusedOnTheMonoHapticBus() throws {
        let host = try TestEngine.host(Self.drive)
        let chains = InsertChains(host: host)
        XCTAssertThrowsError(try chains.add(Self.stereoLimiter, to: .haptic)) { error in
            XCTAssertTrue("\(error)".contains("the haptic bus is mono"), "\(error)")
        }
        XCTAssertTrue(chains.chain(.haptic).isEmpty)
    }
}
