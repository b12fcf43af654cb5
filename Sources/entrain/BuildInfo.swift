import EntrainBuildInfo

/// What `entrain --version` prints: the release (the top entry of CHANGELOG.md; `make deb` and
/// `make dist` name their files after it) and, when the build was stamped, the git commit.
enum BuildInfo {
    static let version = "0.1.0"

    static var commit: String { String(cString: entrain_build_commit()) }

    static var versionLine: String { commit.isEmpty ? version : "\(version) (commit \(commit))" }
}
