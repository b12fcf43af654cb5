import Foundation
import Glibc

/// Temporary files are named `.NAME.PID.SUFFIX` beside their target; a process killed with
/// SIGKILL (or a power cut) leaves its own behind. The next writer into the folder removes
/// those whose process no longer exists.
public enum StaleTemporaries {
    /// The temporary name for `target` written by this process.
    public static func name(for target: URL, suffix: String) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(suffix)")
    }

    /// Remove every `.NAME.PID.SUFFIX` in `directory` whose PID is not running. Files of live
    /// processes (this one included) are left alone; a folder that cannot be listed is skipped.
    public static func sweep(_ directory: URL, suffix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names {
            guard let pid = owner(of: name, suffix: suffix), pid != getpid(), !isRunning(pid) else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// The PID in `.NAME.PID.SUFFIX`, or nil when `name` is not such a file.
    static func owner(of name: String, suffix: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix("." + suffix) else { return nil }
        let stem = name.dropLast(suffix.count + 1)
        guard let dot = stem.lastIndex(of: "."), dot > stem.index(after: stem.startIndex) else { return nil }
        let digits = stem[stem.index(after: dot)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(digits), pid > 0 else { return nil }
        return pid
    }

    /// kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: it exists, not ours).
    static func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }
}
