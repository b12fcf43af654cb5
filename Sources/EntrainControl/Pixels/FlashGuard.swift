/// The flash safety of one pixel output, applied to every frame just before it is sent, whatever
/// the effect asked for.
///
/// A flash is a pair of opposing changes (ITU-R BT.1702, Harding): on each channel of each
/// pixel a *transition* is counted when the value turns back by more than 8/255 from the furthest
/// it reached since the last one (a first move of more than 8 counts too). More than 3 flashes a
/// second — more than 6 transitions within a second — is flashing in the provocative 3–30 Hz
/// range. Disarmed, no channel may do that: a turn that would is held 8/255 short of it (the
/// pixel stays within 8 of where it was). Armed, at most a quarter of the output's pixels may
/// flash at once: a pixel takes one of those places when it needs one, and keeps it until its
/// last second has no more than 6 transitions on any channel. Panic, the exit and black frames
/// pass unchanged (darkness is always allowed) and are counted like any other frame.
struct FlashGuard {
    /// The threshold and the limits, in the units of the wire.
    static let swing = 8
    static let transitionsPerWindow = 6
    /// A little over a second: send times and arrival times differ by the network's jitter.
    static let window = 1.05
    static let flashingShare = 0.25

    let pixels: Int
    let channels: Int
    private var reference: [Int16]
    private var direction: [Int8]
    /// Each track's last `transitionsPerWindow` transition times, as a ring, and where it is.
    private var times: [Double]
    private var next: [UInt8]
    /// Pixels holding one of the armed places.
    private var licensed: [Bool]
    private var licences = 0

    init(pixels: Int, channels: Int) {
        self.pixels = pixels
        self.channels = channels
        let tracks = pixels * channels
        reference = [Int16](repeating: 0, count: tracks)
        direction = [Int8](repeating: 0, count: tracks)
        times = [Double](repeating: -.infinity, count: tracks * Self.transitionsPerWindow)
        next = [UInt8](repeating: 0, count: tracks)
        licensed = [Bool](repeating: false, count: pixels)
    }

    /// How many pixels may flash at once when armed.
    var places: Int { Int(Double(pixels) * Self.flashingShare) }

    /// `frame` (pixels × channels bytes) made safe to show at `time` (seconds, monotonic).
    /// `force` passes it unchanged (black on panic and on exit) and only records it.
    mutating func apply(_ frame: inout [UInt8], at time: Double, armed: Bool, force: Bool = false) {
        if !armed { releaseAll() } else { releaseCalmed(at: time) }
        for p in 0..<pixels {
            let base = p * channels
            // A turn on any channel that the window cannot take makes the pixel one that flashes.
            var needs = false
            if !force && !licensed[p] {
                for c in 0..<channels where turns(base + c, to: Int16(frame[base + c])) && full(base + c, at: time) { needs = true }
            }
            if needs && armed && licences < places {
                licensed[p] = true
                licences += 1
                needs = false
            }
            for c in 0..<channels {
                let t = base + c
                var v = Int16(frame[t])
                if needs && turns(t, to: v) && full(t, at: time) { v = held(t, v) }
                record(t, v, at: time)
                frame[t] = UInt8(v)
            }
        }
    }

    /// Whether `v` would count as a transition on track `t`.
    private func turns(_ t: Int, to v: Int16) -> Bool {
        let r = reference[t], s = Int16(Self.swing)
        switch direction[t] {
        case 1: return v < r - s
        case -1: return v > r + s
        default: return v > r + s || v < r - s
        }
    }

    /// Whether track `t` has had its fill of transitions in the window before `time`.
    private func full(_ t: Int, at time: Double) -> Bool {
        let oldest = times[t * Self.transitionsPerWindow + Int(next[t])]
        return oldest > time - Self.window
    }

    /// `v` held back to 8 short of a turn.
    private func held(_ t: Int, _ v: Int16) -> Int16 {
        let r = reference[t], s = Int16(Self.swing)
        return v < r ? r - s : r + s
    }

    private mutating func record(_ t: Int, _ v: Int16, at time: Double) {
        let r = reference[t], s = Int16(Self.swing)
        switch direction[t] {
        case 1 where v >= r, -1 where v <= r:
            reference[t] = v
        case 0 where v <= r + s && v >= r - s, 1 where v >= r - s, -1 where v <= r + s:
            break
        default:
            direction[t] = v > r ? 1 : -1
            reference[t] = v
            times[t * Self.transitionsPerWindow + Int(next[t])] = time
            next[t] = UInt8((Int(next[t]) + 1) % Self.transitionsPerWindow)
        }
    }

    /// Transitions of track `t` within the window before `time`.
    private func count(_ t: Int, at time: Double) -> Int {
        (0..<Self.transitionsPerWindow).filter { times[t * Self.transitionsPerWindow + $0] > time - Self.window }.count
    }

    /// Places given back by pixels whose last window is calm again on every channel (a pixel
    /// with all its window's transitions counts as still flashing: its next turn would be one more).
    private mutating func releaseCalmed(at time: Double) {
        guard licences > 0 else { return }
        for p in 0..<pixels where licensed[p] {
            if (0..<channels).allSatisfy({ !full(p * channels + $0, at: time) }) {
                licensed[p] = false
                licences -= 1
            }
        }
    }

    private mutating func releaseAll() {
        guard licences > 0 else { return }
        for p in 0..<pixels { licensed[p] = false }
        licences = 0
    }

    /// Pixels flashing now: more than 6 transitions within the window on a channel, or a
    /// place held (for tests and the status).
    func flashing(at time: Double) -> Int {
        (0..<pixels).filter { p in licensed[p] || (0..<channels).contains { count(p * channels + $0, at: time) > Self.transitionsPerWindow } }.count
    }
}
