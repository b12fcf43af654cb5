import EntrainAddressSpace
import Foundation

/// Two-way feedback: every change of any family's value, whatever made it (OSC, the command
/// line, a session, a preset's crossfade, the engine itself), goes to the subscribers on its
/// own address and on ADDRESS/norm. The hub compares the address space's snapshot 30 times a
/// second, which also coalesces bursts to at most 30 messages per second per address. Meters
/// go out 15 times a second.
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

    private let space: AddressSpace
    private let meter: PeakMeter
    private let limits: Limits
    /// Sent to subscribers once a second (the session transport's position and state).
    private let report: @Sendable () -> [OSCMessage]
    private var nextReport = 0.0
    /// Targets from --osc-feedback: never removed by /osc/unsubscribe, never lapse.
    private let fixed: Set<Peer>
    private var subscriptions: [Peer: FeedbackSubscription] = [:]
    /// What was last sent, by address (a family that appears is sent whole on its first tick).
    private var lastSent: [String: ControlValue]?
    private var nextValueCheck = 0.0
    private var nextMeter = 0.0

    init(space: AddressSpace, meter: PeakMeter, fixed: [SocketAddress], limits: Limits = Limits(),
         report: @escaping @Sendable () -> [OSCMessage] = { [] }, now: Double = 0) {
        self.space = space
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
            case (.bridged(let a, _), .bridged(let b, _)): return a != b
            default: return target != sender
            }
        }
    }

    /// Every value on its address and its /norm address: what a new subscriber needs.
    func fullState() -> [OSCMessage] {
        space.families.flatMap { family in family.snapshot().flatMap { Self.messages(family, $0.address, $0.value) } }
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
            var current: [String: ControlValue] = [:]
            for family in space.families {
                for (address, value) in family.snapshot() {
                    current[address] = value
                    if let last = lastSent, last[address] != value { out += Self.messages(family, address, value) }
                }
            }
            lastSent = current
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

    static func messages(_ family: any AddressFamily, _ address: String, _ value: ControlValue) -> [OSCMessage] {
        family.descriptor(for: address)?.feedback(value) ?? [OSCMessage(address, [OSCValue(value)])]
    }

    private static func encoded(_ messages: [OSCMessage]) -> [(address: String, bytes: [UInt8])] {
        messages.map { ($0.address, OSCCodec.encode($0)) }
    }
}
