import Foundation
import TestSupport
import XCTest

/// What a release carries besides the program: the version it names, and the systemd user units
/// `make install` and the Debian package put beside it. The package itself is tested by
/// `make deb-test` (a Debian 12 root, minutes: not part of make test).
final class ReleaseTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    /// `entrain --version` is CHANGELOG.md's top release, and the commit stamped by `make build`.
    func testVersionIsTheChangelogsTopReleaseAndTheStampedCommit() throws {
        let result = try EntrainBinary.run(["--version"])
        XCTAssertEqual(result.status, 0, result.error)
        let line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = try XCTUnwrap(line.wholeMatch(of: #/(\d+\.\d+\.\d+)(?: \(commit ([0-9a-f]{12}(?:-dirty)?)\))?/#), line)

        let changelog = try String(contentsOf: EntrainBinary.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let top = try XCTUnwrap(changelog.firstMatch(of: #/\n## (\d+\.\d+\.\d+) \(\d{4}-\d{2}-\d{2}\)\n/#), "CHANGELOG.md has a release heading")
        XCTAssertEqual(String(parts.1), String(top.1), "the binary's version is CHANGELOG.md's top release")

        // When make stamped a commit, that is the one compiled in (a stamp the build missed shows here).
        let header = EntrainBinary.packageRoot.appendingPathComponent("Sources/EntrainBuildInfo/build-commit.h")
        if let stamp = try? String(contentsOf: header, encoding: .utf8), let commit = parts.2 {
            XCTAssertEqual(stamp, "#define ENTRAIN_BUILD_COMMIT \"\(commit)\"\n", "rebuild after scripts/stamp-commit.sh")
        }
    }

    /// The units as installed (ExecStart pointing at the installed binary) pass systemd's own
    /// checks, man pages of their Documentation= lines included; the stop timeout leaves room for
    /// the default fade-out.
    func testInstalledUserUnitsPassSystemdAnalyzeVerify() throws {
        guard let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("systemd-analyze is not installed (Debian's systemd package)") }
        let prefix = scratch.appendingPathComponent("prefix")
        XCTAssertEqual(try run(EntrainBinary.packageRoot.appendingPathComponent("scripts/install.sh").path, ["", prefix.path],
                               environment: ["ENTRAIN_BINARY": EntrainBinary.url.path]).status, 0)
        let units = prefix.appendingPathComponent("lib/systemd/user")
        let service = try String(contentsOf: units.appendingPathComponent("entrain.service"), encoding: .utf8)
        XCTAssertTrue(service.contains("ExecStart=\(prefix.path)/bin/entrain run $ENTRAIN_OPTIONS"), service)
        let timeout = try XCTUnwrap(service.firstMatch(of: #/\nTimeoutStopSec=(\d+)\n/#).flatMap { Double($0.1) })
        XCTAssertGreaterThanOrEqual(timeout, 2 + 5, "the default 2 s fade-out and a margin")

        // systemd reads an instance from a file named like one; the template's %i then applies.
        let check = scratch.appendingPathComponent("check")
        try FileManager.default.createDirectory(at: check, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: units.appendingPathComponent("entrain.service"), to: check.appendingPathComponent("entrain.service"))
        try FileManager.default.copyItem(at: units.appendingPathComponent("entrain@.service"), to: check.appendingPathComponent("entrain@stage.service"))
        let verify = try run(analyze, ["--user", "verify", check.appendingPathComponent("entrain.service").path,
                                       check.appendingPathComponent("entrain@stage.service").path],
                             environment: ["XDG_RUNTIME_DIR": scratch.path, "MANPATH": prefix.appendingPathComponent("share/man").path])
        XCTAssertEqual(verify.status, 0, verify.output)
        XCTAssertEqual(verify.output, "", "systemd-analyze has nothing to say about the units")
    }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        try runProcess(executable, arguments, environment: environment)
    }
}
