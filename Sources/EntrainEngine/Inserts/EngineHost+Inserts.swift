extension EngineHost {
    /// A chain the engine has stopped using (it took its replacement), for the one control-side
    /// owner of the chains to free; nil when none is waiting.
    public func nextRetiredInsertChain() -> UnsafeMutablePointer<InsertChain>? {
        engine.pointee.retiredInsertChains.pointee.popFirst().flatMap { UnsafeMutablePointer(bitPattern: $0) }
    }
}
