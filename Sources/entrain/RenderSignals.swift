import Dispatch
import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP during `render`: instead of dying with a half-written
/// `.NAME.PID.partial` beside the target, the render stops at its next chunk (milliseconds
/// later), removes its temporary files and exits with 128 + the signal's number. The signals are
/// taken by a dispatch source on an ordinary thread, so nothing runs in signal context.
enum RenderSignals {
    static let received = Atomic<Int32>(0)
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)  // the source sees it; the default action (dying) does not happen
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { _ = received.compareExchange(expected: 0, desired: sig, ordering: .relaxed) }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, by name, or nil.
    static var reason: String? {
        switch received.load(ordering: .relaxed) {
        case 0: nil
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case let other: "signal \(other)"
        }
    }

    /// What the shell reports for a process ended by the signal: 128 + its number.
    static var exitCode: Int32 { 128 + received.load(ordering: .relaxed) }
}
