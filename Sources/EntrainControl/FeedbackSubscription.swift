/// One feedback target: what it still has to receive, paced by a byte budget, and when it expires.
///
/// Nothing is sent past the budget. Changes wait in a queue that keeps only the latest packet per
/// address (so a backlog never grows beyond one packet per address and never delivers stale
/// values), ahead of the rest of the full state a subscribe asked for; time-tagged event
/// bundles (beats) go out only if the budget allows when they happen, as late ones are useless.
/// Used from the server thread only.
struct FeedbackSubscription {
    /// When it lapses unless renewed (nil: never — `--osc-feedback` targets and TCP connections).
    var expires: Double?
    private var budget: ByteBudget
    private var changes = LatestPerAddress()
    private var fullState = LatestPerAddress()
    private var lastFullState = -Double.infinity

    init(bytesPerSecond: Int, expires: Double?, now: Double) {
        budget = ByteBudget(perSecond: bytesPerSecond, start: now)
        self.expires = expires
    }

    /// Whether a (renewed) subscribe should queue the whole state: not while one is still going
    /// out (the target is kept current by the changes queue meanwhile), nor twice in a second.
    func wantsFullState(now: Double) -> Bool { fullState.isEmpty && now - lastFullState >= 1 }

    /// Queue the whole state (behind any pending changes).
    mutating func queueFullState(_ packets: [(address: String, bytes: [UInt8])], now: Double) {
        lastFullState = now
        for packet in packets where !changes.contains(packet.address) { fullState.put(packet.address, packet.bytes) }
    }

    /// Queue changed values: each replaces what was waiting on its address.
    mutating func queueChanges(_ packets: [(address: String, bytes: [UInt8])]) {
        for packet in packets {
            fullState.remove(packet.address)
            changes.put(packet.address, packet.bytes)
        }
    }

    /// The packets to send now: `events` the budget allows, then waiting changes, then the
    /// waiting full state, as far as the budget goes.
    mutating func take(now: Double, events: [[UInt8]]) -> [[UInt8]] {
        var out = events.filter { budget.take($0.count, now: now) }
        for queue in [\FeedbackSubscription.changes, \.fullState] {
            while let next = self[keyPath: queue].first, budget.take(next.count, now: now) {
                out.append(next)
                self[keyPath: queue].removeFirst()
            }
        }
        return out
    }
}

/// At most `perSecond` bytes in any one second, spread out: a token bucket holding a tenth of
/// it and refilled at nine tenths (a tenth plus nine tenths per second make the whole). Small
/// bursts, not one big one, so a receiver with a default socket buffer keeps up.
/// A packet larger than the bucket may go when the bucket is full, so it cannot block the
/// queue for ever (the debt it leaves is paid before anything else goes).
struct ByteBudget {
    let perSecond: Int
    private let capacity: Double
    private var tokens: Double
    private var time: Double

    init(perSecond: Int, start: Double) {
        self.perSecond = perSecond
        capacity = Double(perSecond) / 10
        tokens = capacity
        time = start
    }

    mutating func take(_ bytes: Int, now: Double) -> Bool {
        tokens = min(capacity, tokens + max(0, now - time) * Double(perSecond) * 0.9)
        time = now
        guard Double(bytes) <= tokens || tokens >= capacity else { return false }
        tokens -= Double(bytes)
        return true
    }
}

/// An ordered queue holding at most one packet per address: putting an address already waiting
/// replaces its packet in place.
struct LatestPerAddress {
    private var order: [String] = []
    private var head = 0
    private var packets: [String: [UInt8]] = [:]

    var isEmpty: Bool { packets.isEmpty }

    func contains(_ address: String) -> Bool { packets[address] != nil }

    mutating func put(_ address: String, _ bytes: [UInt8]) {
        guard packets.updateValue(bytes, forKey: address) == nil else { return }
        order.append(address)
        if order.count - head > 2 * packets.count + 256 { compact() }
    }

    mutating func remove(_ address: String) { packets[address] = nil }

    /// The oldest waiting packet.
    var first: [UInt8]? {
        mutating get {
            while head < order.count {
                if let bytes = packets[order[head]] { return bytes }
                head += 1  // removed since it was queued
            }
            return nil
        }
    }

    mutating func removeFirst() {
        guard first != nil else { return }
        packets[order[head]] = nil
        head += 1
        if head > 256, head * 2 > order.count { compact() }
    }

    /// Forget consumed and removed entries (an address removed and put again is listed twice).
    private mutating func compact() {
        var seen = Set<String>()
        order = order[head...].filter { packets[$0] != nil && seen.insert($0).inserted }
        head = 0
    }
}
