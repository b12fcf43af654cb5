@testable import BeatLab
import EntrainEngine
import Foundation
import XCTest

/// The sampled-instrument songs: the MIDI file is well formed, and the truth (from the tempo
/// map) agrees with the audio fluidsynth made of it. Needs fluidsynth and fluid-soundfont-gm,
/// which `make test` installs (scripts/install-deps.sh).
final class SongCorpusTests: XCTestCase {
    func testVariableLengthQuantities() {
        XCTAssertEqual(MIDIFileWriter.variableLength(0), [0])
        XCTAssertEqual(MIDIFileWriter.variableLength(0x7F), [0x7F])
        XCTAssertEqual(MIDIFileWriter.variableLength(0x80), [0x81, 0x00])
        XCTAssertEqual(MIDIFileWriter.variableLength(0x3FFF), [0xFF, 0x7F])
        XCTAssertEqual(MIDIFileWriter.variableLength(0x200000), [0x81, 0x80, 0x80, 0x00])
    }

    func testMIDIFileLayout() {
        var file = MIDIFileWriter(ticksPerQuarter: 480)
        file.add(.tempo(microsecondsPerQuarter: 500_000), at: 0)
        file.add(.noteOn(channel: 9, key: 36, velocity: 100), at: 480)
        file.add(.noteOff(channel: 9, key: 36), at: 600)
        let bytes = [UInt8](file.data(endTick: 960))
        XCTAssertEqual(Array(bytes[0..<14]), Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0])
        XCTAssertEqual(Array(bytes[14..<18]), Array("MTrk".utf8))
        let length = bytes[18..<22].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual(length, bytes.count - 22)
        XCTAssertEqual(Array(bytes[22...]), [0, 0xFF, 0x51, 3, 0x07, 0xA1, 0x20,  // 500000 µs
                                             0x83, 0x60, 0x99, 36, 100,  // 480 ticks later
                                             0x78, 0x89, 36, 0,  // 120 ticks later
                                             0x82, 0x68, 0xFF, 0x2F, 0])  // end at tick 960, 360 ticks later
    }

    /// Steady songs: every beat interval is the tempo's (integer microseconds per quarter);
    /// the drifting one moves by less than 1 % per beat and spans 92–108 BPM.
    func testBeatTruthFollowsTheTempoMap() {
        for spec in SongCorpus.specs {
            let song = spec.score.rendering(seed: spec.name)
            let intervals = zip(song.beats, song.beats.dropFirst()).map { $1 - $0 }
            XCTAssertEqual(song.beats.count, 4 * spec.score.bars.count, spec.name)
            XCTAssertGreaterThanOrEqual(song.duration, 28, spec.name)
            XCTAssertLessThanOrEqual(song.duration, 42, spec.name)
            if spec.category == .tempoChange {
                for (a, b) in zip(intervals, intervals.dropFirst()) { XCTAssertEqual(b / a, 1, accuracy: 0.01, spec.name) }
                XCTAssertEqual(60 / intervals.max()!, 92, accuracy: 2.5)
                XCTAssertEqual(60 / intervals.min()!, 108, accuracy: 2.5)
            } else {
                let period = Double((60e6 / spec.score.tempo(0)).rounded()) / 1e6
                for interval in intervals { XCTAssertEqual(interval, period, accuracy: 1e-9, spec.name) }
            }
        }
    }

    /// The notes in the audio sit where the truth says: the onsets our detector finds in the
    /// rendered pop song match the notes' times (±50 ms) with a median error of a few ms, so
    /// fluidsynth adds no offset the beat truth would miss.
    func testRenderedAudioMatchesTheTruth() throws {
        try XCTSkipUnless(SongRenderer.isAvailable, "fluidsynth or fluid-soundfont-gm not installed (scripts/install-deps.sh)")
        for name in ["pop-120", "rock-140"] {
            let item = try SongCorpus.item(named: name)
            XCTAssertEqual(item.sampleRate, 48_000)
            // fluidsynth plays on for about two seconds after the end of the file (the reverb's tail).
            let written = try XCTUnwrap(SongCorpus.specs.first { $0.name == name }).score.rendering(seed: name).duration
            XCTAssertGreaterThanOrEqual(item.duration, written, name)
            XCTAssertLessThan(item.duration, written + 3, name)
            let events = try BeatAnalysis.analyse(item.samples, sampleRate: Double(item.sampleRate))
            let onsets = events.filter { $0.kind == .onset }.map { Double($0.frame) / Double(item.sampleRate) }
            let score = BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: onsets)
            XCTAssertGreaterThan(score.recall, 0.9, "\(name): \(score)")
            XCTAssertLessThan(abs(try XCTUnwrap(score.medianErrorMs)), 8, "\(name): \(score)")
            let peak = item.samples.reduce(0) { max($0, abs($1)) }
            XCTAssertGreaterThan(peak, 0.1, "\(name): audible")
            XCTAssertLessThan(peak, 1, "\(name): not clipped")
        }
    }

    func testUnknownSongIsAnError() {
        XCTAssertThrowsError(try SongCorpus.item(named: "no-such-song")) { error in
            XCTAssertTrue("\(error)".contains("no song named 'no-such-song'"), "\(error)")
        }
    }
}
