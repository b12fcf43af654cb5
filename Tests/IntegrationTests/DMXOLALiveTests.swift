import Foundation
import TestSupport
import XCTest

/// The LED ports' DMX as OLA's olad receives it — its Art-Net node and its E1.31 (sACN) plugin,
/// each in a network namespace of the test's own — read back with ola_recorder: the levels of
/// /led/manual to the bit (8-bit, 16-bit, a fixed level, a gain), at the set rate.
final class DMXOLALiveTests: LiveClientTestCase {
    func testArtNetLevelsReachOLAsArtNetNodeExactlyAtTheSetRate() throws {
        try levelsReachOLA(.artNet, option: "--artnet")
    }

    func testSACNLevelsReachOLAsE131PluginExactlyAtTheSetRate() throws {
        try levelsReachOLA(.sacn, option: "--sacn")
    }

    /// Universe 3: Art-Net universe 3 of net 0, subnet 0 is OLA's universe 3 on its Art-Net node.
    func levelsReachOLA(_ kind: OLAReceiver.Kind, option: String) throws {
        if let reason = OLAReceiver.unavailable { throw XCTSkip(reason) }
        let ola = try OLAReceiver(universes: [3], kind: kind)
        defer { ola.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC([option, ola.address, "--dmx-universe", "3", "--dmx-map", "1=led,2=led:16,4=200,5=led*0.5",
                                                 "--set", "/led/source/manual=1"], recorder: rec)
        for level in [0.6, 0.35] {
            osc.send("/led/manual", [.float(Float(level)), .float(0)])
            // The level lands within a frame; each recording's last frame, 2 s on, is judged. The
            // rate is as olad's recorder timed the frames: on a loaded machine olad hands them on
            // late, then in a burst (45.2 for 40 once, with the sender's own clock steady), so a
            // rate off the mark is recorded again; a sender at the wrong rate misses every take.
            var rates: [Double] = []
            for _ in 1...3 {
                let frames = try ola.record(universes: [3], seconds: 2)
                let frame = try XCTUnwrap(frames.last, "OLA received universe 3")
                expectLevels(frame.channels, level)
                rates.append(frames.framesPerSecond)
                print(String(format: "DMX to OLA (%@): %.1f frames/s over %d frames at level %.2f", "\(kind)", rates.last!, frames.count, level))
                if abs(rates.last! - 40) <= 4 { break }
            }
            XCTAssertTrue(rates.contains { abs($0 - 40) <= 4 }, "the default 40 frames a second, as OLA received them, in one of 3 recordings: \(rates)")
        }
        stopClient(client)
    }

    /// Channels 1-5 as the map makes them from `level`: 8-bit, 16-bit (2-3), a fixed 200, a gain of 0.5.
    private func expectLevels(_ channels: [UInt8], _ level: Double) {
        let coarse = UInt8((Double(Float(level)) * 255).rounded()), wide = Int((Double(Float(level)) * 65535).rounded())
        XCTAssertEqual(channels[0], coarse, "8-bit at \(level)")
        XCTAssertEqual(Int(channels[1]) << 8 | Int(channels[2]), wide, "16-bit at \(level)")
        XCTAssertEqual(channels[3], 200, "a fixed level")
        XCTAssertEqual(channels[4], UInt8((Double(Float(level)) * 0.5 * 255).rounded()), "gain 0.5")
    }
}
