extension EngineOptions {
    /// Whether `--set` gives `address` (a render with --mix plays the music at 1 unless told).
    func sets(_ address: String) -> Bool { assignments.contains { $0.hasPrefix(address + "=") } }
}
