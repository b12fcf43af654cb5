import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class WAVWriterTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func write(_ format: WAVWriter.Format, _ left: [Float], _ right: [Float]) throws -> WAVFile {
        let url = directory.appendingPathComponent("t.wav")
        let writer = try WAVWriter(url: url, format: format, channels: 2, sampleRate: 44_100)
        try left.withUnsafeBufferPointer { l in try right.withUnsafeBufferPointer { r in try writer.write([l, r]) } }
        try writer.finish()
        return try WAVFile(contentsOf: url)
    }

    func testFloatRoundTripIsExact() throws {
        let left = (0..<1000).map { Float(sin(Double($0) * 0.1)) * 0.9 }
        let right = left.map { -$0 / 3 }
        let file = try write(.float32, left, right)
        XCTAssertEqual(file.sampleRate, 44_100)
        XCTAssertEqual(file.formatTag, 3)
        XCTAssertNil(Measure.firstDifference(file.samples[0], left))
        XCTAssertNil(Measure.firstDifference(file.samples[1], right))
    }

    func testIntegerFormatsAreDitheredWithinOneAndAHalfSteps() throws {
        let left = (0..<20_000).map { Float(sin(Double($0) * 0.01)) * 0.5 }
        for (format, step) in [(WAVWriter.Format.pcm24, Float(1.0 / 8_388_608)), (.pcm16, Float(1.0 / 32768))] {
            let file = try write(format, left, left)
            let errors = zip(file.samples[0], left).map { $0 - $1 }
            // Triangular dither spans ±1 step before rounding (±0.5): the error stays within 1.5 steps.
            XCTAssertLessThanOrEqual(errors.map(abs).max()!, step * 1.55, "\(format)")
            // TPDF dither: the error is noise with zero mean, not a truncation bias.
            XCTAssertEqual(Double(errors.reduce(0, +)) / Double(errors.count), 0, accuracy: Double(step) * 0.05)
        }
    }

    /// The stereo 16-bit path (two frames per step of four dither generators): full scale clamps
    /// to the end codes, NaN is silence, an odd last frame is converted too, and the two channels'
    /// dither is independent (one generator feeding both would correlate their errors).
    func testStereo16BitEdgesAndIndependentDither() throws {
        let n = 20_001
        var left = (0..<n).map { Float(sin(Double($0) * 0.013)) * 0.3 }
        let right = left
        left[0] = 1; left[1] = -1; left[2] = .nan; left[n - 1] = 1
        let file = try write(.pcm16, left, right)
        XCTAssertEqual(file.samples[0].count, n)
        XCTAssertEqual(file.samples[0][0], 32767 / 32768)
        XCTAssertEqual(file.samples[0][1], -1)
        XCTAssertLessThanOrEqual(abs(file.samples[0][2]), 1 / 32768)
        XCTAssertEqual(file.samples[0][n - 1], 32767 / 32768)
        let errorsL = (3..<(n - 1)).map { Double(file.samples[0][$0] - left[$0]) }
        let errorsR = (3..<(n - 1)).map { Double(file.samples[1][$0] - right[$0]) }
        var cross = 0.0, powerL = 0.0, powerR = 0.0
        for (a, b) in zip(errorsL, errorsR) {
            cross += a * b
            powerL += a * a
            powerR += b * b
        }
        let correlation = cross / (powerL * powerR).squareRoot()
        XCTAssertLessThan(abs(correlation), 0.05, "left and right dither are correlated")
    }

    /// Nothing appears at the target path until finish(); an abandoned writer leaves no file.
    func testWritesAreAtomic() throws {
        let url = directory.appendingPathComponent("atomic.wav")
        try Data("keep me".utf8).write(to: url)
        do {
            let writer = try WAVWriter(url: url, format: .float32, channels: 1, sampleRate: 48_000)
            try [Float](repeating: 0.1, count: 100).withUnsafeBufferPointer { try writer.write([$0]) }
            XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "keep me")
        }  // writer dropped without finish()
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "keep me")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["atomic.wav"])
    }

    /// Writing to a pipe or device writes into it; it must never be replaced by a regular file
    /// (an early version renamed its temporary file over /dev/null).
    func testAPipeIsWrittenThroughNotReplaced() throws {
        let fifo = directory.appendingPathComponent("pipe.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        final class Received: @unchecked Sendable { var data = Data() }  // written by the reader thread only
        let received = Received()
        let reader = Thread {
            // Opening blocks until the writer opens; reading ends when it closes.
            received.data = FileHandle(forReadingAtPath: fifo.path)?.readDataToEndOfFile() ?? Data()
        }
        reader.start()
        let samples = [Float](repeating: 0.25, count: 480)
        let writer = try WAVWriter(url: fifo, format: .float32, channels: 1, sampleRate: 48_000, expectedFrames: 480)
        try samples.withUnsafeBufferPointer { try writer.write([$0]) }
        try writer.finish()
        while !reader.isFinished { usleep(1000) }
        var info = stat()
        XCTAssertEqual(stat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        let copy = directory.appendingPathComponent("copy.wav")
        try received.data.write(to: copy)
        XCTAssertNil(Measure.firstDifference(try WAVFile(contentsOf: copy).samples[0], samples))
    }
}
