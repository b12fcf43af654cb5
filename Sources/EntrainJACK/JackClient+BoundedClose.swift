import CJack
import Foundation
import Logging

extension JackClient {
    /// How long leaving the server may take before we stop waiting for it.
    static let closeTimeout: TimeInterval = 5

    /// Runs `leave` — the requests that end a client: deactivate, remove metadata, close — on a
    /// thread of its own and waits `closeTimeout` for it. Each request waits for the server's
    /// answer, and a server can stop answering: one stopped (SIGSTOP, a debugger), or one stuck
    /// writing us notifications no thread of ours reads any more (libjack stops its notification
    /// thread at the start of `jack_client_close`; a full socket wedged a `make test` run here for
    /// good). After the timeout we go on without it: the thread stays blocked in libjack, and the
    /// server drops the client when the process's sockets close.
    func leaveServer(_ what: String, _ leave: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            leave()
            done.signal()
        }
        thread.name = "entrain-close"
        thread.start()
        if done.wait(timeout: .now() + Self.closeTimeout) == .timedOut {
            logger.error("the JACK server did not answer \(what) within \(Int(Self.closeTimeout)) s; going on without it")
        }
    }
}

/// What the closing thread needs: the client and the ports whose metadata it removes (raw
/// handles; the caller waits for that thread, or forgets them).
struct LeavingClient: @unchecked Sendable {
    let client: OpaquePointer
    let context: UnsafeMutablePointer<ProcessContext>
    let ports: [OpaquePointer]
}
