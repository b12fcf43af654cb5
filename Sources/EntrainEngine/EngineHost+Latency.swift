extension EngineHost {
    /// Frames the engine's outputs lag what it renders: the output limiter's look-ahead (the
    /// light and haptic ports wait for it too, so the same figure holds for every output).
    public var outputLatency: Int { engine.pointee.entrainmentBus.limiter.latency }
}
