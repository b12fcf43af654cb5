/// Flashes measured on received frames, by the definition (ITU-R BT.1702 / Harding): a flash is
/// a pair of opposing changes; on each channel of each pixel a transition is counted when the
/// value turns back by more than `swing` from the furthest it went since the last transition
/// (a first move of more than `swing` counts too). More than 6 transitions within one second is
/// more than 3 flashes a second: flashing in the provocative range.
public struct FlashMeasure {
    /// Each channel track's transition times (arrival seconds).
    public private(set) var transitions: [[Double]]
    public let pixels: Int
    public let channels: Int

    public init(frames: [(time: Double, bytes: [UInt8])], pixels: Int, channels: Int, swing: Int = 8) {
        self.pixels = pixels
        self.channels = channels
        let tracks = pixels * channels
        transitions = [[Double]](repeating: [], count: tracks)
        guard let first = frames.first else { return }
        var extreme = (0..<tracks).map { Int(first.bytes[$0]) }
        var direction = [Int](repeating: 0, count: tracks)
        for frame in frames.dropFirst() {
            for t in 0..<tracks {
                let v = Int(frame.bytes[t])
                let up = v > extreme[t] + swing, down = v < extreme[t] - swing
                if (direction[t] == 1 && v >= extreme[t]) || (direction[t] == -1 && v <= extreme[t]) {
                    extreme[t] = v
                } else if (direction[t] != 1 && up) || (direction[t] != -1 && down) {
                    transitions[t].append(frame.time)
                    direction[t] = up ? 1 : -1
                    extreme[t] = v
                }
            }
        }
    }

    /// The most transitions any channel had within any one second.
    public var mostPerSecond: Int {
        transitions.map { times in
            var most = 0, start = 0
            for end in times.indices {
                while times[end] - times[start] >= 1 { start += 1 }
                most = max(most, end - start + 1)
            }
            return most
        }.max() ?? 0
    }

    /// Pixels flashing at `time`: a channel with more than 6 transitions in the second before.
    public func flashing(at time: Double) -> Int {
        (0..<pixels).filter { p in
            (0..<channels).contains { c in transitions[p * channels + c].filter { $0 > time - 1 && $0 <= time }.count > 6 }
        }.count
    }

    /// All transitions of all tracks.
    public var total: Int { transitions.map(\.count).reduce(0, +) }
}
