import Foundation

/// The jackd processes on this machine as /proc shows them, and the test servers among them
/// whose test process is gone.
///
/// A test server's name is `entrain-test-<pid of the test process that started it>-<random>`, and
/// that test process starts jackd as its own child. So a server of that pattern whose parent is
/// not the process named in it lost its test process (it was killed, timed out or crashed) and
/// serves nobody: its parent became init (or a subreaper). Nothing else is ever touched: not a
/// server of another name (a user's own), not one whose test process still runs.
public struct JackdProcess: Sendable {
    public let pid: pid_t
    public let parent: pid_t
    /// The name after `-n` (nil when jackd runs under the default name).
    public let serverName: String?

    /// Every jackd running now.
    public static func all() -> [JackdProcess] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.compactMap(read)
    }

    /// One process, if it is a jackd that has not exited.
    public static func read(_ pid: pid_t) -> JackdProcess? {
        guard let arguments = ProcStat.arguments(of: pid), let first = arguments.first,
              URL(fileURLWithPath: first).lastPathComponent == "jackd",
              let stat = ProcStat(pid), !stat.exited else { return nil }
        let name = arguments.firstIndex(of: "-n").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        return JackdProcess(pid: pid, parent: stat.parent, serverName: name)
    }

    /// The test process named in a test server's name, nil for any other name.
    public static func testProcess(ofServerNamed name: String) -> pid_t? {
        guard name.hasPrefix(JackTestServer.namePrefix) else { return nil }
        let rest = name.dropFirst(JackTestServer.namePrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard rest.count == 2, UInt16(rest[1]) != nil else { return nil }
        return pid_t(rest[0])
    }

    /// A test server whose test process is no longer its parent.
    public var isOrphanedTestServer: Bool {
        guard let serverName, let owner = Self.testProcess(ofServerNamed: serverName) else { return false }
        return parent != owner
    }

    /// Stops every orphaned test server (SIGTERM, so it leaves JACK's server registry; SIGKILL
    /// after 3 s) and waits until they are gone. Returns the names reaped.
    @discardableResult
    public static func reapOrphanedTestServers() -> [String] {
        let orphans = all().filter(\.isOrphanedTestServer)
        for orphan in orphans { ProcStat.stop(orphan.pid) }
        let names = orphans.compactMap(\.serverName)
        for name in names { try? FileManager.default.removeItem(at: JackTestServer.logURL(name: name)) }
        return names
    }
}

/// What /proc/<pid>/stat and cmdline say about one process.
public struct ProcStat: Sendable {
    public let state: Character
    public let parent: pid_t
    /// Exited: gone, or a zombie its parent has not collected yet.
    public var exited: Bool { state == "Z" || state == "X" }

    public init?(_ pid: pid_t) {
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        self.state = state
        self.parent = parent
    }

    /// The process exists and has not exited.
    public static func isRunning(_ pid: pid_t) -> Bool {
        ProcStat(pid).map { !$0.exited } ?? false
    }

    /// Whether the process exited within `seconds` (polled every 20 ms).
    @discardableResult
    public static func waitUntilGone(_ pid: pid_t, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning(pid) && Date() < deadline { usleep(20_000) }
        return !isRunning(pid)
    }

    /// SIGTERM (a jackd then leaves JACK's server registry), SIGKILL if it is still there 3 s later.
    public static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        if !waitUntilGone(pid, seconds: 3) {
            kill(pid, SIGKILL)
            waitUntilGone(pid, seconds: 2)
        }
    }

    /// argv as the process was started, nil if it is gone (or a kernel thread).
    public static func arguments(of pid: pid_t) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}
