/// Keeps the reported mode from flickering: a mode is entered only when its membership passes
/// an entry threshold, becomes established after staying a while, and an established mode is
/// left only when the newcomer passes its exit threshold. Times are seconds of ticks (about one
/// a second). A change of mode keeps the status the change set (the reference's Python engine
/// resets it to unknown there, so nothing is ever established after a first change).
public struct ModeHysteresis: Sendable {
    public struct Rule: Sendable {
        var entry, exit: Double
        var provisionalSeconds, establishedSeconds: Double
        var entryPenalty, settledBonus: Double
    }

    public enum Status: String, Sendable { case unknown, provisional, established }

    public struct Output: Sendable, Equatable {
        public var mode: String
        public var confidence: Double
        public var status: Status
        /// Seconds since this mode was entered.
        public var dwell: Double
        /// The mode before this one, if it changed.
        public var previous: String?
    }

    static let rules: [String: Rule] = [
        "heightened alertness": Rule(entry: 0.18, exit: 0.24, provisionalSeconds: 3, establishedSeconds: 8, entryPenalty: 0.85, settledBonus: 1.05),
        "subtle alertness": Rule(entry: 0.18, exit: 0.24, provisionalSeconds: 3, establishedSeconds: 8, entryPenalty: 0.85, settledBonus: 1.05),
        "transitional": Rule(entry: 0.17, exit: 0.22, provisionalSeconds: 2, establishedSeconds: 5, entryPenalty: 0.90, settledBonus: 1.00),
        "settling": Rule(entry: 0.19, exit: 0.25, provisionalSeconds: 3, establishedSeconds: 10, entryPenalty: 0.80, settledBonus: 1.10),
        "rhythmic settling": Rule(entry: 0.20, exit: 0.26, provisionalSeconds: 3, establishedSeconds: 10, entryPenalty: 0.80, settledBonus: 1.10),
        "settled presence": Rule(entry: 0.22, exit: 0.28, provisionalSeconds: 5, establishedSeconds: 15, entryPenalty: 0.75, settledBonus: 1.15),
    ]
    static let fallback = Rule(entry: 0.3, exit: 0.4, provisionalSeconds: 3, establishedSeconds: 10, entryPenalty: 0.7, settledBonus: 1.1)

    public private(set) var current: String?
    public private(set) var status = Status.unknown
    public private(set) var previous: String?
    public private(set) var transitions = 0
    private var provisionalSince = 0.0
    private var entryTime = 0.0

    public init() {}

    public func dwell(at t: Double) -> Double { current == nil ? 0 : t - entryTime }

    /// The mode to report at time `t` when `proposed` is the strongest with membership `raw`.
    public mutating func update(proposed: String, membership raw: Double, at t: Double) -> Output {
        let rule = Self.rules[proposed] ?? Self.fallback
        var mode: String, confidence: Double
        guard let c = current else {
            if raw >= rule.entry {
                enter(proposed, at: t)
                return output(proposed, raw * rule.entryPenalty, at: t)
            }
            return Output(mode: "transitional", confidence: 0.3, status: status, dwell: 0, previous: previous)
        }
        let currentRule = Self.rules[c] ?? Self.fallback
        if proposed == c {
            mode = c
            confidence = raw
            if status == .established, dwell(at: t) >= currentRule.establishedSeconds {
                confidence = min(1, raw * currentRule.settledBonus)
            }
            if status == .provisional, t - provisionalSince >= rule.provisionalSeconds { status = .established }
        } else if status == .established && raw < currentRule.exit {
            mode = c
            confidence = 0.9 * currentRule.exit
        } else if status == .established || raw >= rule.entry {
            enter(proposed, at: t)
            mode = proposed
            confidence = raw * rule.entryPenalty
        } else {
            mode = c
            confidence = raw
        }
        return output(mode, confidence, at: t)
    }

    private mutating func enter(_ mode: String, at t: Double) {
        if current != nil { transitions += 1 }
        previous = current
        current = mode
        entryTime = t
        status = .provisional
        provisionalSince = t
    }

    private func output(_ mode: String, _ confidence: Double, at t: Double) -> Output {
        Output(mode: mode, confidence: confidence, status: status, dwell: dwell(at: t), previous: previous)
    }
}
