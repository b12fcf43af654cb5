import BeatLab
import EntrainCore
@testable import EntrainEngine
import XCTest

/// The tempo octave from the tempo-and-phase filter's own evidence and its tempo prior
/// (`/beat/tempo/prefer`, a log-normal weight on every beat): a sixteenth-hat hip-hop groove at
/// 75 BPM is followed at 75, not at the 150 its hats suggest, with the prior at 90 and at the
/// default 100, while fast rock and four-on-the-floor at 174 and 180 BPM keep their speed at
/// 100 and 120. (The replaced tracker had a bar-level rule that kept hip-hop at 75 even with a
/// prior at 120; with the filter a hint of 120 is a request the music allows: the hats at 150.)
final class TempoOctaveTests: XCTestCase {
    /// The median tempo of the beats published after 10 s, with the prior centred on `prefer`.
    static func lateTempo(_ name: String, prefer: Double) throws -> Double {
        let item = try XCTUnwrap(BeatCorpus.item(named: name))
        let beats = try BeatQualityTests.analyse(item, ["/beat/tempo/prefer": prefer]).beats
        let late = beats.filter { Double($0.frame) / Double(item.sampleRate) > 10 }.map { Double($0.bpm) }.sorted()
        return late.isEmpty ? 0 : late[late.count / 2]
    }

    func testSixteenthHatGrooveKeepsItsSlowTempo() throws {
        for prefer in [90.0, 100] {
            XCTAssertEqual(try Self.lateTempo("hiphop-075", prefer: prefer), 75, accuracy: 1.5, "prior at \(prefer) BPM")
        }
    }

    /// At the default centre and above. (A hint of 90 is a request for 90: it halves a held beat
    /// above about 165 BPM, as `testPreferredTempoChoosesTheOctave` asks of the pop song at 60.)
    func testFastBeatsKeepTheirSpeed() throws {
        for prefer in [100.0, 120] {
            XCTAssertEqual(try Self.lateTempo("fast-174", prefer: prefer), 174, accuracy: 2, "prior at \(prefer) BPM")
            XCTAssertEqual(try Self.lateTempo("fast-180", prefer: prefer), 180, accuracy: 2, "prior at \(prefer) BPM")
        }
    }
}
