extension EngineHost {
    /// Frames the engine's outputs lag what it renders: the output limiter's look-ahead and the
    /// hosted plugins' reported latency (the light and haptic ports wait for both too, so the
    /// same figure holds for every output).
    public var outputLatency: Int {
        engine.pointee.entrainmentBus.limiter.latency + status.pointee.insertLatency.load(ordering: .relaxed)
    }
}
