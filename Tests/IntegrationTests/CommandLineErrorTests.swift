import Foundation
import TestSupport
import XCTest

/// Bad input on the command line: a clear message and a non-zero exit, never a crash.
final class CommandLineErrorTests: XCTestCase {
    func testNoServerIsAClearError() throws {
        let result = try EntrainBinary.run(["run", "--server", "no-such-server-\(getpid())", "--quiet"],
                                           environment: ["JACK_NO_START_SERVER": "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.error.contains("no JACK server named 'no-such-server"), result.error)
        XCTAssertFalse(result.error.contains("Cannot connect to server socket"), "libjack's own noise is kept out: \(result.error)")
    }

    func testOutOfRangeParametersAreRejectedBeforeAnythingStarts() throws {
        let result = try EntrainBinary.run(["render", "--duration", "1", "--out", "/tmp/never.wav", "--carrier", "5000"])
        XCTAssertEqual(result.status, 64)  // EX_USAGE
        XCTAssertTrue(result.error.contains("/entrain/carrier: 5000 Hz is out of range 20–1500 Hz"), result.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never.wav"))

        let iso = try EntrainBinary.run(["render", "--duration", "1", "--out", "/tmp/never.wav",
                                         "--mode", "isochronic", "--beat", "0.1"])
        XCTAssertEqual(iso.status, 64)
        XCTAssertTrue(iso.error.contains("at least 0.5 Hz"), iso.error)

        let nan = try EntrainBinary.run(["render", "--duration", "1", "--out", "/tmp/never.wav", "--volume", "nan"])
        XCTAssertEqual(nan.status, 64)
        XCTAssertTrue(nan.error.contains("finite"), nan.error)
    }

    func testUnwritableOutputIsAClearError() throws {
        let result = try EntrainBinary.run(["render", "--duration", "1", "--out", "/nonexistent-dir/x.wav"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.error.contains("/nonexistent-dir/x.wav"), result.error)
    }

    func testAnalyseReportsMissingAndBrokenFilesAndBadSettings() throws {
        let missing = try EntrainBinary.run(["analyse", "/nonexistent-\(getpid()).wav"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.error.contains("no such file"), missing.error)

        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(getpid()).wav")
        try Data("RIFF\u{10}\0\0\0WAVEfmt ".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let truncated = try EntrainBinary.run(["analyse", broken.path])
        XCTAssertEqual(truncated.status, 1)
        XCTAssertTrue(truncated.error.contains(broken.path), truncated.error)

        let range = try EntrainBinary.run(["analyse", broken.path, "--set", "/beat/tempo/max=500"])
        XCTAssertEqual(range.status, 64)
        XCTAssertTrue(range.error.contains("/beat/tempo/max"), range.error)
    }
}
