import EntrainService
import Synchronization

/// Builds HTTP answers on a thread of its own, so that the loop goes on carrying WebSocket
/// frames (the page's PANIC among them) while one is made: the whole namespace as JSON takes
/// 100 ms and more, and a client may ask for it over and over. One job per connection at most
/// (a connection reads no further request until its answer is out), taken in order.
final class AnswerWorker: Sendable {
    /// One answer being made: the connection looks whether it is done each turn of the loop.
    final class Pending: Sendable {
        private let state = Atomic<Int>(0)  // 0 waiting, 1 done, 2 no longer wanted
        var isDone: Bool { state.load(ordering: .acquiring) == 1 }
        fileprivate func finish() { _ = state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing) }
        /// The connection closed: the answer need not be made.
        func cancel() { _ = state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing) }
        fileprivate var isWanted: Bool { state.load(ordering: .acquiring) == 0 }
    }

    private struct Job: Sendable {
        let request: RequestHead
        let outbox: Outbox
        let pending: Pending
        /// The answer's form on the wire: HEAD (no body), whether the connection then closes,
        /// and whether to tell an HTTP/1.0 client it stays open.
        let head: Bool, close: Bool, keepAlive: Bool
    }

    private let jobs = Mutex<[Job]>([])
    private let thread = ServiceThread("entrain-http-a")

    /// `respond` makes an answer; `done` is called (on the worker's thread) after each one is queued.
    func start(respond: @escaping @Sendable (RequestHead) -> HTTPResponse, done: @escaping @Sendable () -> Void) -> Bool {
        thread.start { [self] service in
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                service.wait(60)  // until a job is submitted (or the worker stops)
                return
            }
            guard job.pending.isWanted else { return }
            job.outbox.add(respond(job.request).serialized(head: job.head, close: job.close, keepAlive: job.keepAlive))
            job.pending.finish()
            done()
        }
    }

    /// Queues the answer to `request`, to go into `outbox` once made.
    func submit(_ request: RequestHead, to outbox: Outbox, head: Bool, close: Bool, keepAlive: Bool) -> Pending {
        let pending = Pending()
        jobs.withLock { $0.append(Job(request: request, outbox: outbox, pending: pending, head: head, close: close, keepAlive: keepAlive)) }
        thread.wake()
        return pending
    }

    /// Ends the thread after the answer it is making, if any; what is queued is dropped.
    func stop() {
        thread.stop()
        jobs.withLock { $0 = [] }
    }
}
