import BeatLab
import Foundation
import TestSupport
import XCTest

/// The issue's rig: a 300-pixel strip over DDP (to a display written in the tests) and a
/// two-universe sACN matrix (to OLA's olad, read back with ola_recorder) running together from a
/// song on beat_in: the beat flash on the strip, the band spectrum on the matrix, both at 40+
/// frames a second measured on the receivers, the matrix within the armed area rule. And an
/// Art-Net strip across two universes, as OLA's Art-Net node receives it.
final class PixelOLALiveTests: LiveClientTestCase {
    func testAStripOverDDPAndATwoUniverseMatrixOverSACNShowASongTogether() throws {
        if let reason = OLAReceiver.unavailable { throw XCTSkip(reason) }
        let server = try self.server
        let ola = try OLAReceiver(universes: [1, 2])
        defer { ola.stop() }
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let folder = try TemporaryFolder("pixels-ola")
        defer { folder.remove() }
        let rig = try folder.write("""
            [{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "127.0.0.1:\(display.port)", "fps": 50},
             {"name": "wall", "pixels": 340, "layout": "matrix", "width": 34, "protocol": "sacn", "target": "\(ola.address)", "universe": 1, "fps": 44}]
            """, "rig.json")
        let rec = try recorder(channels: 1, seconds: 0.2)
        let client = try startClient(["--pixels", rig.path, "--arm-strobe",
                                      "--set", "/pixels/strip/effect=beat", "--set", "/pixels/strip/palette=white", "--set", "/pixels/strip/brightness=1",
                                      "--set", "/pixels/wall/effect=bands", "--set", "/pixels/wall/palette=rainbow", "--set", "/pixels/wall/brightness=1"],
                                     recorder: rec)
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        XCTAssertTrue(display.wait(timeout: 20) { !$0.isEmpty }, "the strip's frames arrive")
        let song = try JackPlayer(server: server.name, samples: Array(item.samples.prefix(14 * server.sampleRate)), name: "song")
        try song.connect(to: "entrain:beat_in")
        song.play()
        try song.waitForSample(4 * server.sampleRate)  // the tracker has locked
        display.clear()
        let window = 6.0
        let frames = try ola.record(universes: [1, 2], seconds: window)
        let strip = display.received.frames
        stopClient(client)

        let universe1 = frames.filter { $0.universe == 1 }, universe2 = frames.filter { $0.universe == 2 }
        let stripRate = strip.framesPerSecond
        let rises = zip(strip, strip.dropFirst()).filter { Int($1.bytes[0]) - Int($0.bytes[0]) > 128 }.count
        // The matrix as shown: universe 1 holds pixels 0-169, universe 2 pixels 170-339 (510 channels each).
        let matrix = zip(universe1, universe2).map { (time: $1.time, bytes: Array($0.channels.prefix(510)) + Array($1.channels.prefix(510))) }
        let lit = matrix.map { frame in (0..<340).filter { p in frame.bytes[(p * 3)..<(p * 3 + 3)].contains(where: { $0 > 0 }) }.count }
        // The columns the spectrum lit at some time (rows are wired back and forth).
        var columns = Set<Int>()
        for frame in matrix {
            for p in 0..<340 where frame.bytes[(p * 3)..<(p * 3 + 3)].contains(where: { $0 > 0 }) {
                let row = p / 34, along = p % 34
                columns.insert(row % 2 == 1 ? 33 - along : along)
            }
        }
        let measure = FlashMeasure(frames: matrix, pixels: 340, channels: 3)
        let flashing = matrix.dropFirst(matrix.count / 5).map { measure.flashing(at: $0.time) }.max() ?? 0
        print(String(format: "pixels with OLA: sACN universes 1 and 2 at %.1f and %.1f frames/s (%d and %d frames in 6 s), DDP strip at %.1f frames/s with %d beat flashes; the matrix lit %d pixels at most, in %d of 34 columns, at most %d flashing at once",
                     universe1.framesPerSecond, universe2.framesPerSecond, universe1.count, universe2.count, stripRate, rises, lit.max() ?? 0, columns.count, flashing))
        XCTAssertGreaterThanOrEqual(universe1.framesPerSecond, 40, "universe 1 as olad received it")
        XCTAssertGreaterThanOrEqual(universe2.framesPerSecond, 40, "universe 2 as olad received it")
        XCTAssertEqual(universe1.first?.channels.count, 512, "every slot of a universe")
        XCTAssertGreaterThanOrEqual(stripRate, 40, "the strip at the same time")
        XCTAssertGreaterThanOrEqual(rises, 9, "a flash on (nearly) every beat of 120 BPM over 6 s")
        XCTAssertGreaterThanOrEqual(columns.count, 24, "the spectrum reaches most columns")
        XCTAssertGreaterThan(lit.filter { $0 > 0 }.count, matrix.count * 9 / 10, "the spectrum is lit while the song plays")
        XCTAssertLessThanOrEqual(flashing, 85, "armed, at most a quarter of the matrix flashes at once")
    }

    /// 200 GRB pixels over Art-Net to OLA's Art-Net node: 170 whole pixels in universe 5, the
    /// other 30 in universe 6, the colour a solid fire palette gives at 0.4, at the strip's rate;
    /// /panic turns both black, and they stay black.
    func testAnArtNetStripReachesOLAsArtNetNodeAcrossTwoUniversesAndPanicBlacksItOut() throws {
        if let reason = OLAReceiver.unavailable { throw XCTSkip(reason) }
        let ola = try OLAReceiver(universes: [5, 6], kind: .artNet)
        defer { ola.stop() }
        let folder = try TemporaryFolder("pixels-ola-artnet")
        defer { folder.remove() }
        let rig = try folder.write(#"[{"name": "eaves", "pixels": 200, "protocol": "artnet", "target": "\#(ola.address)", "universe": 5, "order": "grb", "fps": 44}]"#, "rig.json")
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--pixels", rig.path, "--set", "/pixels/eaves/effect=solid", "--set", "/pixels/eaves/palette=fire",
                                                 "--set", "/pixels/eaves/brightness=0.4"], recorder: rec)
        let lit = try ola.record(universes: [5, 6], seconds: 2)
        let panicked = try ola.record(universes: [5, 6], seconds: 3) {
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { osc.send("/panic") }
        }
        stopClient(client)

        let first = lit.filter { $0.universe == 5 }, second = lit.filter { $0.universe == 6 }
        let rate = first.framesPerSecond
        print(String(format: "pixels over Art-Net to OLA: %.1f frames/s in universe 5, %d frames in universe 6 in 2 s", rate, second.count))
        XCTAssertGreaterThanOrEqual(rate, 40, "universe 5 as OLA's Art-Net node received it")
        XCTAssertGreaterThanOrEqual(second.count, first.count * 9 / 10, "universe 6 alongside")
        XCTAssertEqual(first.last?.channels.count, 510, "170 whole RGB pixels in universe 5")
        XCTAssertEqual(second.last?.channels.count, 90, "the other 30 in universe 6")
        // Fire runs from red to yellow along the strip: in grb order green comes first, then red,
        // full red at 0.4 (102) on every pixel, the first pure red.
        let strip = (first.last?.channels ?? []) + (second.last?.channels ?? [])
        let pixels = stride(from: 0, to: strip.count, by: 3).map { Array(strip[$0..<min($0 + 3, strip.count)]) }
        XCTAssertEqual(pixels.count, 200)
        XCTAssertEqual(pixels.first, [0, 102, 0], "the first pixel red")
        XCTAssertEqual(Set(pixels.map { $0[1] }), [102], "red on the second channel of every pixel (grb)")
        // After the panic: black in both universes, never lit again.
        let after = panicked.filter { $0.universe == 5 }
        let black = try XCTUnwrap(after.firstIndex { $0.channels.max() == 0 }, "universe 5 goes black")
        XCTAssertGreaterThan(black, 0, "lit until the panic")
        XCTAssertTrue(after[black...].allSatisfy { $0.channels.max() == 0 }, "and stays black")
        XCTAssertEqual(panicked.last { $0.universe == 6 }?.channels.max(), 0, "universe 6 too")
    }
}

