import CJack
import CLink
import Foundation
import Synchronization

/// entrain's place in an Ableton Link session (control side). Link finds its peers on the local
/// network by itself once enabled; this holds what the `link` family sets (enabled, role,
/// quantum, start/stop sync) and tells the process thread what to do each period: follow the
/// session's beats while it has peers and the role is `follow`, lead it from beat_in's beats
/// with `lead-from-beat`, nothing otherwise.
public final class LinkSession: @unchecked Sendable {
    public enum Role: String, CaseIterable, Sendable {
        /// The session's tempo and phase drive the beat grids here.
        case follow
        /// The beats found on beat_in drive the session's tempo and phase.
        case leadFromBeat = "lead-from-beat"
    }

    /// Link's own object: its calls are thread-safe (the app-thread ones); the process thread
    /// uses the audio-thread ones only.
    let session: OpaquePointer
    struct Settings {
        var role = Role.follow
        var quantum = 4.0
        var startStop = false
    }
    private let settings = Mutex(Settings())
    /// How the process thread is told the mode and quantum (set by `attach`).
    private let tellProcess = Mutex<((LinkProcess.Mode, Double) -> Void)?>(nil)

    public init(tempo: Double = 120) throws {
        guard let session = entrain_link_new(tempo) else { throw LinkError.cannotStart }
        self.session = session
    }

    deinit { entrain_link_free(session) }

    public var enabled: Bool {
        get { entrain_link_is_enabled(session) }
        set { entrain_link_enable(session, newValue); update() }
    }

    public var peers: Int { entrain_link_peers(session) }

    public var role: Role {
        get { settings.withLock { $0.role } }
        set { settings.withLock { $0.role = newValue }; update() }
    }

    /// Beats per bar: where phase is aligned with the peers (Link's quantum).
    public var quantum: Double {
        get { settings.withLock { $0.quantum } }
        set { settings.withLock { $0.quantum = newValue }; update() }
    }

    /// Share start and stop with the peers that do (Link's start/stop sync).
    public var startStop: Bool {
        get { settings.withLock { $0.startStop } }
        set {
            settings.withLock { $0.startStop = newValue }
            entrain_link_enable_start_stop_sync(session, newValue)
        }
    }

    /// The session's tempo now, and setting it (as any peer may).
    public var tempo: Double {
        get {
            var moment = entrain_link_moment()
            entrain_link_app_moment(session, Int64(jack_get_time()), quantum, &moment)
            return moment.tempo
        }
        set { entrain_link_app_set_tempo(session, newValue, Int64(jack_get_time())) }
    }

    /// What the process thread does now: follow only with peers to follow.
    var currentMode: LinkProcess.Mode {
        guard enabled else { return .off }
        switch role {
        case .follow: return peers > 0 ? .follow : .off
        case .leadFromBeat: return .lead
        }
    }

    /// The process side to tell (the client's context).
    func attach(_ setMode: ((LinkProcess.Mode, Double) -> Void)?) {
        tellProcess.withLock { $0 = setMode }
        update()
    }

    /// Tell the process thread the mode and quantum in force: after each change, and from the
    /// control loop (peers come and go).
    public func update() {
        let now = currentMode, quantum = quantum
        tellProcess.withLock { $0?(now, quantum) }
    }
}

public enum LinkError: Error, CustomStringConvertible {
    case cannotStart

    public var description: String { "Ableton Link could not be set up" }
}

extension LinkSession {
    /// The role by its name in the address space ("follow", "lead-from-beat").
    public var roleName: String {
        get { role.rawValue }
        set { role = Role(rawValue: newValue) ?? .follow }
    }
}
