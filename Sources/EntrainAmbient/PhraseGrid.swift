import Kessho

/// The 16 s UTC phrase grid on an engine's frames: an anchor (a frame and the
/// Unix time it plays at) and the next boundary to schedule.
struct PhraseGrid {
    private(set) var origin: AmbientConductor.Moment
    let sampleRate: Double
    /// The phrase index of the next boundary not yet scheduled.
    private(set) var nextPhrase: Int

    /// The first boundary is the next multiple of 16 s (`start` itself when exactly on one).
    init(start: AmbientConductor.Moment, sampleRate: Double) {
        origin = start
        self.sampleRate = sampleRate
        nextPhrase = Int((start.unixSeconds / KesshoPhrase.length).rounded(.up))
    }

    /// The same grid on another engine (another rate), anchored at `now`.
    init(_ grid: PhraseGrid, anchoredAt now: AmbientConductor.Moment, sampleRate: Double) {
        origin = now
        self.sampleRate = sampleRate
        nextPhrase = grid.nextPhrase
    }

    /// The engine frame that plays at Unix time `t`.
    func frame(at t: Double) -> Int64 {
        origin.frame + Int64(((t - origin.unixSeconds) * sampleRate).rounded(.down))
    }

    var nextBoundaryFrame: Int64 { frame(at: Double(nextPhrase) * KesshoPhrase.length) }

    mutating func advance() { nextPhrase += 1 }

    /// A sound card's clock drifts from UTC (50 ppm is 0.18 s an hour): when the engine's frames
    /// and the wall clock disagree by more than 20 ms, re-anchor at `now`. Offline clocks agree
    /// exactly and never move it; a live clock's jitter (a period) stays below.
    mutating func follow(_ now: AmbientConductor.Moment) {
        let predicted = origin.unixSeconds + Double(now.frame - origin.frame) / sampleRate
        if abs(predicted - now.unixSeconds) > 0.02 { origin = now }
    }
}
