import Foundation
import Synchronization

/// The latest output peaks, shared by the status line and the OSC meters. The run loop is the
/// one reader of the engine's peak registers and records what it took here.
public final class PeakMeter: Sendable {
    private let peaks = Mutex<(left: Float, right: Float)>((0, 0))

    public init() {}

    public func record(_ value: (left: Float, right: Float)) { peaks.withLock { $0 = value } }

    public var latest: (left: Float, right: Float) { peaks.withLock { $0 } }

    /// Peaks in dBFS, floored at -120.
    public var decibels: (left: Float, right: Float) {
        let p = latest
        func db(_ x: Float) -> Float { x > 1e-6 ? 20 * log10(x) : -120 }
        return (db(p.left), db(p.right))
    }
}
