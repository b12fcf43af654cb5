import Foundation

/// A token bucket per key: at most `rate` events per second, bursts up to `burst`.
struct RateLimiter<Key: Hashable> {
    let rate: Double
    let burst: Double
    private var buckets: [Key: (tokens: Double, time: Double)] = [:]

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// True if the event may go ahead now (and takes a token).
    mutating func allow(_ key: Key, now: Double) -> Bool {
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.time) * rate)
        bucket.time = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        buckets[key] = bucket
        if buckets.count > 4096 { buckets = buckets.filter { now - $0.value.time < 10 } }  // forget old senders
        return allowed
    }
}
