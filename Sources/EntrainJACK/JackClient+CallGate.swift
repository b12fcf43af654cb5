import CJack

extension JackClient {
    /// A control-side step that calls JACK: under our lock, inside the call gate (see
    /// `JackCallGate`). A latency callback missed meanwhile is asked for again on the way out.
    func withJack<R>(_ body: (inout Held) throws -> R) rethrows -> R {
        try held.withLock { held in
            context.pointee.callGate.enter()
            defer {
                context.pointee.callGate.leave()
                recomputeMissedLatencies(held)
            }
            return try body(&held)
        }
    }

    /// A callback is missed only while the gate is held: asked for again as `withJack` leaves it.
    private func recomputeMissedLatencies(_ held: Held) {
        guard context.pointee.callGate.takeMissed(), let client = held.client, held.active, !serverGone else { return }
        // Outside the gate: the callbacks this asks for must find it free.
        jack_recompute_total_latencies(client)
    }
}
