import EntrainDSP

/// The isochronic amplitude gate: on for `duty` of each period, with raised-cosine rise and
/// fall of `edge` periods each inside the on-time. Smooth edges keep the spectrum compact: no clicks.
enum IsochronicGate {
    @inlinable @inline(__always)
    static func value(phase: Double, duty: Double, edge: Double) -> Float {
        let ramp = min(edge, duty * 0.5)
        if phase >= duty { return 0 }
        if phase < ramp { return Float(0.5 - 0.5 * FastMath.cosTurns(0.5 * phase / ramp)) }
        let fallStart = duty - ramp
        if phase < fallStart { return 1 }
        return Float(0.5 + 0.5 * FastMath.cosTurns(0.5 * (phase - fallStart) / ramp))
    }
}
