import Foundation

/// A token bucket per key: at most `rate` events per second, bursts up to `burst`.
///
/// Memory is bounded: at most `capacity` keys are tracked. A key whose bucket has refilled
/// carries no information (it would start full anyway), so it is forgotten when room is needed;
/// when every tracked key is still busy, newcomers share one overflow bucket, so a sender
/// inventing new source ports gets one allowance between them, not one each.
struct RateLimiter<Key: Hashable> {
    let rate: Double
    let burst: Double
    let capacity: Int
    private var buckets: [Key: Bucket] = [:]
    private var overflow: Bucket
    /// Forgetting refilled keys walks the table: at most once a second.
    private var nextSweep = -Double.infinity

    init(rate: Double, burst: Double, capacity: Int = 1024) {
        self.rate = rate
        self.burst = burst
        self.capacity = capacity
        overflow = Bucket(tokens: burst, time: 0)
    }

    /// Keys tracked now (for tests of the bound).
    var trackedKeys: Int { buckets.count }

    /// True if the event may go ahead now (and takes a token).
    mutating func allow(_ key: Key, now: Double) -> Bool {
        if let index = buckets.index(forKey: key) { return buckets.values[index].take(now: now, rate: rate, burst: burst) }
        if buckets.count >= capacity, now >= nextSweep {
            nextSweep = now + 1
            buckets = buckets.filter { !$0.value.isFull(now: now, rate: rate, burst: burst) }
        }
        guard buckets.count < capacity else { return overflow.take(now: now, rate: rate, burst: burst) }
        var bucket = Bucket(tokens: burst, time: now)
        let allowed = bucket.take(now: now, rate: rate, burst: burst)
        buckets[key] = bucket
        return allowed
    }

    private struct Bucket {
        var tokens: Double
        var time: Double

        mutating func take(now: Double, rate: Double, burst: Double) -> Bool {
            tokens = min(burst, tokens + max(0, now - time) * rate)
            time = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }

        func isFull(now: Double, rate: Double, burst: Double) -> Bool { tokens + (now - time) * rate >= burst }
    }
}
