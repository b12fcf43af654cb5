@testable import EntrainControl
import XCTest

/// The effects drawn for known moments: what lights, where, and how bright.
final class PixelEffectsTests: XCTestCase {
    func spec(_ json: String) throws -> PixelOutputSpec { try XCTUnwrap(PixelRig.parse("[\(json)]").first) }

    func moment(frame: Int64 = 48_000, bands: [Float] = .init(repeating: 0, count: 16), led: Float = 0,
                beats: [(frame: Int64, strength: Float)] = [], onsets: [(frame: Int64, strength: Float)] = []) -> PixelMoment {
        PixelMoment(frame: frame, sampleRate: 48_000, bands: bands, led: led, beats: beats, onsets: onsets)
    }

    func settings(_ effect: PixelSettings.Effect, palette: String = "white") -> PixelSettings {
        var s = PixelSettings()
        s.effect = effect
        s.palette = Palette.names.firstIndex(of: palette)!
        return s
    }

    func lit(_ colors: [PixelColor]) -> [Int] { colors.indices.filter { colors[$0].r > 0 } }

    func testEnergyLightsTheShareOfTheStripItsLevelSays() throws {
        var effects = PixelEffects(try spec(#"{"name": "s", "pixels": 100, "protocol": "ddp", "target": "127.0.0.1"}"#))
        let colors = effects.draw(moment(bands: .init(repeating: 0.3, count: 16)), settings(.energy), time: 0)
        XCTAssertEqual(lit(colors), Array(0..<30), "a level of 0.3 lights the first 30 of 100")
    }

    func testBandsRiseAsBarsOnAMatrixColumnByColumn() throws {
        var effects = PixelEffects(try spec(#"{"name": "m", "pixels": 160, "layout": "matrix", "width": 16, "protocol": "ddp", "target": "127.0.0.1"}"#))
        var bands = [Float](repeating: 0, count: 16)
        bands[3] = 0.5
        let colors = effects.draw(moment(bands: bands), settings(.bands), time: 0)
        let places = lit(colors).map { effects.place($0) }
        XCTAssertTrue(places.allSatisfy { $0.x == 3 }, "only column 3")
        XCTAssertEqual(places.map(\.y).sorted(), [0, 1, 2, 3, 4], "half of 10 rows, from the bottom")
    }

    func testScrollCarriesAnOnsetAlongAtSixtyPixelsASecond() throws {
        var effects = PixelEffects(try spec(#"{"name": "s", "pixels": 100, "protocol": "ddp", "target": "127.0.0.1"}"#))
        let half = moment(frame: 48_000 + 24_000, onsets: [(48_000, 1)])
        let colors = effects.draw(half, settings(.scroll), time: 0)
        XCTAssertEqual(lit(colors).max(), 30, "half a second after the onset its head is at pixel 30")
        XCTAssertEqual(lit(colors).min(), 27, "with a tail of 4")
    }

    func testStrobeLightsAQuarterAndBeatFlashesFade() throws {
        var strobe = PixelEffects(try spec(#"{"name": "s", "pixels": 128, "protocol": "ddp", "target": "127.0.0.1"}"#))
        XCTAssertEqual(lit(strobe.draw(moment(led: 1), settings(.strobe), time: 0)).count, 32, "a quarter of 128")
        var beat = PixelEffects(try spec(#"{"name": "s", "pixels": 10, "protocol": "ddp", "target": "127.0.0.1"}"#))
        let at = beat.draw(moment(frame: 48_000, beats: [(48_000, 1)]), settings(.beat), time: 0)[0].r
        let later = beat.draw(moment(frame: 48_000 + 7_200, beats: [(48_000, 1)]), settings(.beat), time: 0.15)[0].r
        XCTAssertEqual(at, 1, accuracy: 1e-6, "full on the beat")
        XCTAssertEqual(later, Float(exp(-1.0)), accuracy: 1e-3, "1/e after 150 ms")
    }
}
