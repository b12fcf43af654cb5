import BeatLab
import EntrainCore
@testable import EntrainEngine
import XCTest

/// The tempo octave from bar-level evidence, whatever the prior's centre: a sixteenth-hat
/// hip-hop groove at 75 BPM (its kick and snare repeat only every bar) is followed at 75, not at
/// the 150 its hats suggest, while fast rock and four-on-the-floor at 174 and 180 BPM (their
/// bars repeat every two beats at half tempo) keep their speed. Before the bar-level evidence no
/// single prior centre served both: at 120 BPM hip-hop went to 150, at 90 the fast songs to 90.
/// The hip-hop groove is checked with the prior at 90, 100 and 120 BPM.
final class TempoOctaveTests: XCTestCase {
    /// The median tempo of the beats published after 10 s, with the prior centred on `prefer`.
    static func lateTempo(_ name: String, prefer: Double) throws -> Double {
        let item = try XCTUnwrap(BeatCorpus.item(named: name))
        let beats = try BeatQualityTests.analyse(item, ["/beat/tempo/prefer": prefer]).beats
        let late = beats.filter { Double($0.frame) / Double(item.sampleRate) > 10 }.map { Double($0.bpm) }.sorted()
        return late.isEmpty ? 0 : late[late.count / 2]
    }

    func testSixteenthHatGrooveKeepsItsSlowTempo() throws {
        for prefer in [90.0, 100, 120] {
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
