import Foundation
import Glibc

/// Progress of long work on stderr: a bar with elapsed time and an estimate when stderr is a
/// terminal, else a plain line at every tenth; nothing for work done within half a second,
/// nothing with `--quiet`. Output on stdout (reports, JSON) is never touched.
final class Progress {
    private let label: String
    private let enabled: Bool
    private let terminal: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var lastTenth = 0
    private var drawn = false

    /// `terminal` defaults to whether stderr is one; `ENTRAIN_PROGRESS=plain` forces lines.
    init(_ label: String, quiet: Bool, terminal: Bool = isatty(STDERR_FILENO) == 1
            && ProcessInfo.processInfo.environment["ENTRAIN_PROGRESS"] != "plain") {
        self.label = label
        self.enabled = !quiet
        self.terminal = terminal
    }

    /// `done` of `total` units of work.
    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= 0.5 else { return }
        let fraction = min(1, Double(done) / Double(total))
        let left = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        if terminal {
            guard now.timeIntervalSince(lastDraw) >= 0.1 || done == total else { return }
            lastDraw = now
            let width = 24, filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            StandardError.write("\r\u{1B}[K\(label) [\(bar)] \(Int(fraction * 100))%  \(Self.clock(elapsed)) elapsed, \(Self.clock(left)) left")
            drawn = true
        } else {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            StandardError.write("\(label): \(tenth * 10)% (\(Self.clock(elapsed)) elapsed, about \(Self.clock(left)) left)\n")
        }
    }

    /// Clears the bar so the report that follows starts on a clean line.
    func finish() {
        if drawn { StandardError.write("\r\u{1B}[K") }
        drawn = false
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
