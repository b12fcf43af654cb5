import EntrainAddressSpace
import Foundation

/// Two-way feedback: every change of any family's value, whatever made it (OSC, the command
/// line, a session, a preset's crossfade, the engine itself), goes to the subscribers on its
/// own address and on ADDRESS/norm. The hub compares the address space's snapshot 30 times a
/// second, which also coalesces bursts to at most 30 messages per second per address. Meters
/// go out 15 times a second. Used from the server thread only.
final class FeedbackHub {
    static let valueInterval = 1.0 / 30
    static let meterInterval = 1.0 / 15
    static let maximumSubscribers = 64

    static let reportInterval = 1.0

    private let space: AddressSpace
    private let meter: PeakMeter
    /// Sent to subscribers once a second (the session transport's position and state).
    private let report: @Sendable () -> [OSCMessage]
    private var nextReport = 0.0
    /// Targets from --osc-feedback: never removed by /osc/unsubscribe.
    private let fixed: Set<Peer>
    private(set) var subscribers: Set<Peer>
    /// What was last sent, by address (a family that appears is sent whole on its first tick).
    private var lastSent: [String: ControlValue]?
    private var nextValueCheck = 0.0
    private var nextMeter = 0.0

    init(space: AddressSpace, meter: PeakMeter, fixed: [SocketAddress], report: @escaping @Sendable () -> [OSCMessage] = { [] }) {
        self.space = space
        self.meter = meter
        self.report = report
        self.fixed = Set(fixed.map(Peer.udp))
        subscribers = self.fixed
    }

    var targets: Set<Peer> { subscribers }

    /// Add a target; returns false when the list is full. A new subscriber gets the whole state.
    func subscribe(_ target: Peer) -> Bool {
        guard subscribers.contains(target) || subscribers.count < Self.maximumSubscribers else { return false }
        subscribers.insert(target)
        return true
    }

    /// Remove the sender: a TCP connection itself, or every non-fixed UDP target on its host.
    func unsubscribe(from sender: Peer) {
        subscribers = subscribers.filter { target in
            if fixed.contains(target) { return true }
            switch (target, sender) {
            case (.udp(let a), .udp(let b)): return a.ip != b.ip
            default: return target != sender
            }
        }
    }

    /// Every value on its address and its /norm address: what a new subscriber needs.
    func fullState() -> [OSCMessage] {
        space.families.flatMap { family in family.snapshot().flatMap { Self.messages(family, $0.address, $0.value) } }
    }

    /// What is due at `now` for all subscribers: changed values and meters.
    func tick(now: Double) -> [OSCMessage] {
        guard !subscribers.isEmpty else { return [] }
        var out: [OSCMessage] = []
        if now >= nextValueCheck {
            nextValueCheck = now + Self.valueInterval
            var now: [String: ControlValue] = [:]
            for family in space.families {
                for (address, value) in family.snapshot() {
                    now[address] = value
                    if let last = lastSent, last[address] != value { out += Self.messages(family, address, value) }
                }
            }
            lastSent = now
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
}
