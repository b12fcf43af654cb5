import Foundation

/// The value of one dynamic control (…Control ID) at every tick.
///
/// `Parameter` steps and `ParameterCurve`s for the same ID form one timeline in which the most
/// recently started one rules: a step from its own tick on, a curve from its first control point
/// on. Inside a curve the value is interpolated linearly between the points around the tick;
/// after the curve's last point it holds the last value (Apple leaves this undefined) until a
/// later step or curve takes over. Before anything starts the control is neutral (1 for
/// intensity, 0 for the others). At equal start ticks a curve wins over a step, and a later
/// entry over an earlier one of the same kind.
struct AHAPControlTrack {
    private enum Segment {
        case step(Double)
        case curve([(time: Double, value: Double)])  // absolute seconds
    }
    private let segments: [(start: Int, segment: Segment)]
    private let neutral: Double

    init(_ id: ControlID, pattern: AHAPPattern) {
        neutral = id.neutralValue
        var list: [(start: Int, order: Int, segment: Segment)] = []
        for p in pattern.parameters where p.id == id {
            list.append((AHAPEnvelope.tick(p.time), list.count, .step(p.value)))
        }
        let curveOrder = pattern.parameters.count  // curves sort after steps at the same tick
        for c in pattern.curves where c.id == id && !c.points.isEmpty {
            let points = c.points.map { (time: c.time + $0.time, value: $0.value) }
            list.append((AHAPEnvelope.tick(points[0].time), curveOrder + list.count, .curve(points)))
        }
        segments = list.sorted { ($0.start, $0.order) < ($1.start, $1.order) }.map { ($0.start, $0.segment) }
    }

    /// The tick of the last control point of any curve: curves extend the pattern this far.
    static func end(of pattern: AHAPPattern) -> Int {
        pattern.curves.compactMap { c in c.points.last.map { AHAPEnvelope.tick(c.time + $0.time) } }.max() ?? 0
    }

    /// Values for ticks 0..<count, walking the segments once.
    func values(count: Int) -> [Double] {
        var out = [Double](repeating: neutral, count: count)
        for (i, (start, segment)) in segments.enumerated() where start < count {
            let stop = i + 1 < segments.count ? min(segments[i + 1].start, count) : count
            guard start < stop else { continue }
            switch segment {
            case .step(let v):
                for n in start..<stop { out[n] = v }
            case .curve(let points):
                var j = 1  // first point later than the tick
                for n in start..<stop {
                    let t = Double(n) / AHAPEnvelope.ticksPerSecond
                    while j < points.count, points[j].time <= t { j += 1 }
                    if j == points.count { out[n] = points[points.count - 1].value; continue }
                    let a = points[j - 1], b = points[j]
                    // Ticks rounded onto the curve's start may lie a hair before its first point.
                    out[n] = t <= a.time ? a.value : a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time)
                }
            }
        }
        return out
    }
}
