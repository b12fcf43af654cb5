import Dispatch
import Synchronization

/// Runs the messages that read files (the commands declared `readsFiles`: a session, a preset, a
/// playlist, an ambient preset, a haptic pattern) on a worker, one at a time, so the OSC thread
/// keeps serving while a big file is read and checked — `/panic` above all. The worker routes the message as the OSC thread would (load,
/// then apply) and hands back its replies. A sender's later messages wait behind its load, so
/// "load, then play" keeps its order; `/panic` and `/ping` never wait.
/// `admit` and `finished` are called from the server thread only.
// @unchecked: `held` is touched by the server thread only (admit, finished); the worker touches
// only `router` (Sendable) and `done` (behind its mutex).
final class FileLoadQueue: @unchecked Sendable {
    enum Admission: Equatable {
        /// Route it now, on the calling thread.
        case now
        /// Started on the worker, or held behind the sender's load in progress.
        case queued
        /// Not taken; tell the sender why.
        case refused(String)
    }

    /// A load that ended: its sender, what to send back, and the sender's messages held behind
    /// it (to route in order; another load among them queues them again).
    struct Finished {
        let sender: Peer
        let actions: [OSCRouter.Action]
        let released: [TimedMessage]
    }

    /// Senders with a load in progress or waiting for the worker.
    static let maximumLoads = 16
    /// Messages one sender may have waiting behind its load.
    static let maximumHeld = 1024

    private let router: OSCRouter
    private let worker = DispatchQueue(label: "entrain-osc-files")
    private let done = Mutex<[(sender: Peer, actions: [OSCRouter.Action])]>([])
    /// Senders with a load not yet finished → what they sent after it.
    private var held: [Peer: [TimedMessage]] = [:]

    /// Called from the worker when a load has ended (the server's loop then takes it).
    private let onFinished: @Sendable () -> Void

    init(router: OSCRouter, finished: @escaping @Sendable () -> Void = {}) {
        self.router = router
        onFinished = finished
    }

    var loadsInProgress: Int { held.count }

    func admit(_ timed: TimedMessage, from sender: Peer) -> Admission {
        let address = timed.message.address
        // What acts on any message (/panic, /ping) never waits behind a load.
        if router.command(address)?.trigger == .always { return .now }
        if held[sender] != nil {
            guard held[sender]!.count < Self.maximumHeld else {
                return .refused("more than \(Self.maximumHeld) messages waiting behind a file load; dropped")
            }
            held[sender]!.append(timed)
            return .queued
        }
        guard router.command(address)?.readsFiles == true else { return .now }
        guard held.count < Self.maximumLoads else { return .refused("\(Self.maximumLoads) files are loading already; try again") }
        held[sender] = []
        worker.async { [self] in
            let actions = router.handle(timed)
            done.withLock { $0.append((sender, actions)) }
            onFinished()
        }
        return .queued
    }

    /// The loads that ended since the last call.
    func finished() -> [Finished] {
        let ended = done.withLock { list in defer { list.removeAll() }; return list }
        return ended.map { Finished(sender: $0.sender, actions: $0.actions, released: held.removeValue(forKey: $0.sender) ?? []) }
    }
}
