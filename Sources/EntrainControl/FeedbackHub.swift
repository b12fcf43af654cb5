import EntrainCore
import EntrainEngine
import Foundation

/// Two-way feedback: every parameter change, whatever made it (OSC, the command line, a session),
/// goes to the subscribers on its own address and on ADDRESS/norm. The hub compares the engine's
/// values 30 times a second, which also coalesces bursts to at most 30 messages per second per
/// address. Meters go out 15 times a second. Used from the server thread only.
final class FeedbackHub {
    static let valueInterval = 1.0 / 30
    static let meterInterval = 1.0 / 15
    static let maximumSubscribers = 64

    static let reportInterval = 1.0

    private let host: @Sendable () -> EngineHost
    private let meter: PeakMeter
    /// Sent to subscribers once a second (the session transport's position and state).
    private let report: @Sendable () -> [OSCMessage]
    private var nextReport = 0.0
    /// Targets from --osc-feedback: never removed by /osc/unsubscribe.
    private let fixed: Set<Peer>
    private(set) var subscribers: Set<Peer>
    private var lastSent: ParameterValues?
    private var nextValueCheck = 0.0
    private var nextMeter = 0.0
    /// The ambient engine's keys, compared on the same beat as the parameters.
    private var ambient: AmbientFeedback?

    init(host: @escaping @Sendable () -> EngineHost, meter: PeakMeter, fixed: [SocketAddress],
         report: @escaping @Sendable () -> [OSCMessage] = { [] }, ambient: AmbientController? = nil) {
        self.host = host
        self.ambient = ambient.map(AmbientFeedback.init)
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

    /// Every parameter on its address and its /norm address: what a new subscriber needs.
    func fullState() -> [OSCMessage] {
        let engine = host()
        return engine.table.entries.flatMap { messages(for: $0, value: engine.values[$0.index]) } + (ambient?.fullState() ?? [])
    }

    /// What is due at `now` for all subscribers: changed values and meters.
    func tick(now: Double) -> [OSCMessage] {
        guard !subscribers.isEmpty else { return [] }
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

    private func messages(for entry: ParameterTable.Entry, value: Double) -> [OSCMessage] {
        [OSCMessage(entry.spec.address, [OSCRouter.natural(value, entry.spec)]),
         OSCMessage(entry.spec.address + "/norm", [.float(Float(entry.spec.normalized(value)))])]
    }
}
