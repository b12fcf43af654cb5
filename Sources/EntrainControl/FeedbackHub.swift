import EntrainCore
import EntrainEngine
import Foundation

/// Two-way feedback: every parameter change, whatever made it (OSC, the command line, a session),
/// goes to the subscribers on its own address and on ADDRESS/norm. The hub compares the engine's
/// values 30 times a second, which also coalesces bursts to at most 30 messages per second per
/// address. Meters go out 15 times a second.
///
/// Each target gets at most `bytesPerSecond` (a subscribe's full state is paced out over the
/// following seconds rather than sent in one burst), and a UDP subscription lapses `lifetime`
/// seconds after its last /osc/subscribe: a 20-byte packet with a forged source address cannot
/// turn into an endless or outsized stream. `--osc-feedback` targets never lapse; a TCP
/// subscription lasts as long as its connection. Used from the server thread only.
final class FeedbackHub {
    struct Limits: Sendable {
        /// Seconds a UDP subscription lasts unless renewed by another /osc/subscribe.
        var lifetime = 60.0
        /// Bytes each target may receive per second.
        var bytesPerSecond = 16_384
    }

    static let valueInterval = 1.0 / 30
    static let meterInterval = 1.0 / 15
    static let maximumSubscribers = 64

    static let reportInterval = 1.0

    private let host: @Sendable () -> EngineHost
    private let meter: PeakMeter
    private let limits: Limits
    /// Sent to subscribers once a second (the session transport's position and state).
    private let report: @Sendable () -> [OSCMessage]
    private var nextReport = 0.0
    /// Targets from --osc-feedback: never removed by /osc/unsubscribe, never lapse.
    private let fixed: Set<Peer>
    private var subscriptions: [Peer: FeedbackSubscription] = [:]
    private var lastSent: ParameterValues?
    private var nextValueCheck = 0.0
    private var nextMeter = 0.0
    /// The ambient engine's keys, compared on the same beat as the parameters.
    private var ambient: AmbientFeedback?

    init(host: @escaping @Sendable () -> EngineHost, meter: PeakMeter, fixed: [SocketAddress], limits: Limits = Limits(),
         report: @escaping @Sendable () -> [OSCMessage] = { [] }, ambient: AmbientController? = nil, now: Double = 0) {
        self.host = host
        self.ambient = ambient.map(AmbientFeedback.init)
        self.meter = meter
        self.limits = limits
        self.report = report
        self.fixed = Set(fixed.map(Peer.udp))
        for target in self.fixed { subscriptions[target] = FeedbackSubscription(bytesPerSecond: limits.bytesPerSecond, expires: nil, now: now) }
    }

    var targets: Dictionary<Peer, FeedbackSubscription>.Keys { subscriptions.keys }
    var hasTargets: Bool { !subscriptions.isEmpty }

    /// Add a target, or renew it; returns false when the list is full. The target gets the whole
    /// state, paced by its budget (a renewal only when no earlier one is still going out).
    func subscribe(_ target: Peer, now: Double) -> Bool {
        var subscription = subscriptions[target]
            ?? FeedbackSubscription(bytesPerSecond: limits.bytesPerSecond, expires: nil, now: now)
        guard subscriptions[target] != nil || subscriptions.count < Self.maximumSubscribers else { return false }
        if case .udp = target, !fixed.contains(target) { subscription.expires = now + limits.lifetime }
        if subscription.wantsFullState(now: now) { subscription.queueFullState(Self.encoded(fullState()), now: now) }
        subscriptions[target] = subscription
        return true
    }

    /// Remove the sender: a TCP connection itself, or every non-fixed UDP target on its host.
    func unsubscribe(from sender: Peer) {
        subscriptions = subscriptions.filter { target, _ in
            if fixed.contains(target) { return true }
            switch (target, sender) {
            case (.udp(let a), .udp(let b)): return a.ip != b.ip
            default: return target != sender
            }
        }
    }

    /// Every parameter on its address and its /norm address: what a new subscriber needs.
    func fullState() -> [OSCMessage] {
        let engine = host()
        return engine.table.entries.flatMap { messages(for: $0, value: engine.values[$0.index]) } + (ambient?.fullState() ?? [])
    }

    /// The packets due at `now`, per target: changed values, meters and `extra` messages (kept
    /// to the latest per address when a target is over its budget), and `events` (time-tagged
    /// bundles, dropped for a target over its budget). Lapsed subscriptions end here.
    func tick(now: Double, extra: [OSCMessage] = [], events: [[UInt8]] = []) -> [(target: Peer, packet: [UInt8])] {
        if subscriptions.values.contains(where: { $0.expires.map { now >= $0 } ?? false }) {
            subscriptions = subscriptions.filter { $0.value.expires.map { now < $0 } ?? true }
        }
        guard !subscriptions.isEmpty else { return [] }
        let changes = Self.encoded(changedMessages(now: now) + extra)
        var out: [(target: Peer, packet: [UInt8])] = []
        for target in Array(subscriptions.keys) {
            subscriptions[target]?.queueChanges(changes)
            for packet in subscriptions[target]?.take(now: now, events: events) ?? [] { out.append((target, packet)) }
        }
        return out
    }

    /// Changed values and meters due at `now`.
    private func changedMessages(now: Double) -> [OSCMessage] {
        var out: [OSCMessage] = []
        if now >= nextValueCheck {
            nextValueCheck = now + Self.valueInterval
            let engine = host()
            let values = engine.values
            if let last = lastSent, last.storage.count == values.storage.count {
                for entry in engine.table.entries where values[entry.index] != last[entry.index] {
                    out += messages(for: entry, value: values[entry.index])
                }
            }
            lastSent = values
            out += ambient?.changes() ?? []
        }
        if now >= nextReport {
            nextReport = now + Self.reportInterval
            out += report()
        }
        if now >= nextMeter {
            nextMeter = now + Self.meterInterval
            let db = meter.decibels
            out.append(OSCMessage("/meter/entrainment", [.float(db.left), .float(db.right)]))
        }
        return out
    }

    private static func encoded(_ messages: [OSCMessage]) -> [(address: String, bytes: [UInt8])] {
        messages.map { ($0.address, OSCCodec.encode($0)) }
    }

    private func messages(for entry: ParameterTable.Entry, value: Double) -> [OSCMessage] {
        [OSCMessage(entry.spec.address, [OSCRouter.natural(value, entry.spec)]),
         OSCMessage(entry.spec.address + "/norm", [.float(Float(entry.spec.normalized(value)))])]
    }
}
