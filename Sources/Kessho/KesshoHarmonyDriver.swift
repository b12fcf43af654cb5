/// The web's phrase-boundary sequence for harmony: CoF drift update first, then the harmony update
/// (a drift forces a new chord in the drifted key). The time bucket is fixed when the driver is made,
/// as the web freezes it at engine start.
public struct KesshoHarmonyDriver: Sendable {
    public let bucket: String
    public private(set) var drift = KesshoCoFDrift()
    public private(set) var harmony: KesshoHarmonyState

    public init(bucket: String, state: KesshoState) {
        self.bucket = bucket
        harmony = KesshoHarmonyState(bucket: bucket, state: state)
    }

    /// Home root moved `drift.step` places around the circle.
    public func effectiveRoot(_ state: KesshoState) -> Int {
        KesshoCircleOfFifths.drifted(home: KesshoCircleOfFifths.pitchClass(state.number("rootNote") ?? 4), step: drift.step)
    }

    /// One 16 s boundary. `coin` is the engine stream, drawn only for the random drift direction.
    /// Returns true when a new chord was generated.
    @discardableResult
    public mutating func phraseBoundary(phraseIndex: Int, state: KesshoState, coin: () -> Double) -> Bool {
        let moved = drift.advance(state: state, coin: coin)
        return harmony.advance(phraseIndex: phraseIndex, bucket: bucket, state: state,
                               root: effectiveRoot(state), forceChange: moved)
    }

    /// Disabling drift or loading a preset sends the key home.
    public mutating func resetDrift() { drift.reset() }
}
