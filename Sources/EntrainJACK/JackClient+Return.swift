import CJack
import EntrainCore
import Foundation

/// Surviving the server: the dead handle is closed from the control side, a server of the same
/// name is tried again, and on its return the same ports come back with their metadata and the
/// connections they had (unless a session manager owns connections).
extension JackClient {
    /// Connections restored after a return whose far end is not back yet are retried this long.
    static let restoreWindow: TimeInterval = 60
    /// JACK reports connection changes one by one; the control side re-reads ours once they settle.
    static let connectionSettle: TimeInterval = 0.25

    /// The server is gone: close what is left of the old handle and try once to open on a server
    /// of the same name, with the same ports, metadata and callbacks. True when a server is back
    /// (not yet active: the caller re-prepares for its rate, then calls `restart`).
    public func reopen() -> Bool {
        withJack { held in
            guard !held.closed, serverGone else { return false }
            stopWatchingCycles()
            if let dead = held.client {
                jack_client_close(dead)  // the handle's threads are gone with the server; this frees it
                held.client = nil
                held.portHandles = [:]
                held.active = false
                context.pointee.ports = InlineArray(repeating: nil)
                context.pointee.client = nil
                // No cycles now: time tags must not map onto frames the engine is not playing.
                context.pointee.forgetAnchor()
            }
            var status = jack_status_t(rawValue: 0)
            JackMessages.collect()  // "cannot connect to server" every retry says nothing new
            let opened = Self.open(name, server: options.server, exact: true, status: &status)
            _ = JackMessages.take()
            guard let client = opened else { return false }
            JackMessages.passThrough()
            var handles: [ClientPort: OpaquePointer] = [:]
            do {
                try setUp(client, handles: &handles)
            } catch {
                logger.error("the JACK server is back, but \(error); retrying")
                jack_client_close(client)
                context.pointee.ports = InlineArray(repeating: nil)
                context.pointee.client = nil
                context.pointee.serverGone.store(true, ordering: .relaxed)
                return false
            }
            held.client = client
            held.portHandles = handles
            return true
        }
    }

    /// Run again after `reopen`, with the engine held now, and restore the connections we had.
    public func restart() throws {
        try withJack { held in
            guard let client = held.client, !held.active else { return }
            guard jack_activate(client) == 0 else { throw JackError.cannotActivate }
            held.active = true
            watchCycles()
            if !options.managed {
                held.pending = held.connections.flatMap { port, others in others.map { (port, $0) } }
                held.pendingUntil = Date().addingTimeInterval(Self.restoreWindow)
                connectPending(&held, client)
            }
        }
        context.pointee.returns.add(1, ordering: .relaxed)
    }

    /// From the control loop: keep the remembered connections up to date while the server is up,
    /// and retry restored ones whose far end was not back yet.
    public func rememberConnections(now: Date = Date()) {
        if context.pointee.connectionsChanged.exchange(false, ordering: .relaxed) {
            held.withLock { $0.connectionsChangedAt = now }
        }
        withJack { held in
            guard let client = held.client, held.active, !serverGone else { return }
            if !held.pending.isEmpty && now < held.pendingUntil { connectPending(&held, client) }
            guard let changed = held.connectionsChangedAt, now.timeIntervalSince(changed) >= Self.connectionSettle else { return }
            held.connectionsChangedAt = nil
            var seen: [ConnectablePort: [String]] = [:]
            for (port, handle) in connectable(held) {
                let others = Self.names(jack_port_get_all_connections(client, handle))
                if !others.isEmpty { seen[port] = others }
            }
            held.connections = seen
            // What is connected now needs no restoring any more.
            held.pending.removeAll { pair in seen[pair.0]?.contains(pair.1) ?? false }
        }
    }

    /// The connections of our ports as remembered (full names of the far ends, sorted).
    public var rememberedConnections: [String: [String]] {
        held.withLock { held in
            Dictionary(uniqueKeysWithValues: held.connections.map { ($0.key.name, $0.value.sorted()) })
        }
    }

    private func connectPending(_ held: inout Held, _ client: OpaquePointer) {
        held.pending.removeAll { port, other in
            let ours = "\(name):\(port.name)"
            let code = port.isOutput ? jack_connect(client, ours, other) : jack_connect(client, other, ours)
            return code == 0 || code == EEXIST
        }
    }

    /// Our registered ports whose connections are remembered: the audio and CV ports and the MIDI
    /// ones (registered apart; their handles live in the process context, set with the handle's).
    private func connectable(_ held: Held) -> [(ConnectablePort, OpaquePointer)] {
        var ports = held.portHandles.map { (ConnectablePort(name: $0.key.name, isOutput: $0.key.direction == .output), $0.value) }
        if let midi = context.pointee.midiOut { ports.append((ConnectablePort(name: Self.midiOutName, isOutput: true), midi)) }
        if let midi = context.pointee.midiIn { ports.append((ConnectablePort(name: Self.midiInName, isOutput: false), midi)) }
        return ports
    }
}

/// One of our ports by its short name and direction, whatever its type (audio, CV or MIDI).
struct ConnectablePort: Hashable {
    let name: String
    let isOutput: Bool
}
