import CJack
import Foundation

/// How long the process callback takes, period by period: the slowest period of each second and
/// of the whole run, as a share of the period's length. JACK's own DSP load is a smoothed average
/// over the graph; an xrun comes from one slow period, which only this shows.
public struct PeriodTime: Sendable, Equatable {
    /// Microseconds the slowest period's process callback took.
    public var micros: Int
    /// The period's length in microseconds at the time.
    public var periodMicros: Int
    /// The engine frame its callback ended at.
    public var frame: Int64

    /// Share of the period the callback took (1 = all of it: an xrun).
    public var share: Double { periodMicros > 0 ? Double(micros) / Double(periodMicros) : 0 }
}

extension JackClient {
    /// The slowest period since the last call, and start a new window. The control loop calls it
    /// once a second; nil when no period ran.
    public func takeSlowestPeriod() -> PeriodTime? {
        let micros = context.pointee.slowestMicros.exchange(0, ordering: .relaxed)
        guard micros > 0 else { return nil }
        let frame = Int64(context.pointee.slowestFrame.load(ordering: .relaxed))
        let periodMicros = Int((Double(bufferSize) * 1e6 / max(1, sampleRate)).rounded())
        let taken = PeriodTime(micros: micros, periodMicros: periodMicros, frame: frame)
        held.withLock { held in
            held.lastSecondSlowest = taken
            if taken.share > (held.slowestSinceStart?.share ?? -1) { held.slowestSinceStart = taken }
        }
        return taken
    }

    /// The slowest period of the last whole second the control loop rolled over.
    public var lastSecondSlowestPeriod: PeriodTime? { held.withLock { $0.lastSecondSlowest } }
    /// The slowest period since the client started.
    public var slowestPeriodSinceStart: PeriodTime? { held.withLock { $0.slowestSinceStart } }
}

extension ProcessContext {
    /// Process thread: note one period's time (single writer; the control side only exchanges it to 0).
    func notePeriodTime(began: jack_time_t, endFrame: Int64) {
        let spent = Int(truncatingIfNeeded: jack_get_time() &- began)
        if spent > slowestMicros.load(ordering: .relaxed) {
            slowestFrame.store(Int(endFrame), ordering: .relaxed)
            slowestMicros.store(spent, ordering: .relaxed)
        }
    }
}

