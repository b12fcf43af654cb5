import EntrainCore

extension OfflineRenderer {
    /// Play `input` into beat_in block by block, through the same `Engine.process` as live, and
    /// collect the onsets and beats the engine publishes (frames count from the engine's frame
    /// when the call starts). Outputs are rendered and discarded.
    public func analyse(_ input: UnsafeBufferPointer<Float>) -> [BeatEvent] {
        var events: [BeatEvent] = []
        var done = 0
        while done < input.count {
            let n = min(blockSize, input.count - done)
            feedBlock(n, fill: { io in
                io[.beatIn]!.update(from: input.baseAddress! + done, count: n)
            })
            while let event = host.nextBeatEvent() { events.append(event) }
            done += n
        }
        return events
    }

    public func analyse(_ input: [Float]) -> [BeatEvent] {
        input.withUnsafeBufferPointer { analyse($0) }
    }
}

/// Beat analysis of audio in memory, offline, through a fresh engine (the live code path).
public enum BeatAnalysis {
    /// Onsets and beats of mono `samples`, with `values` for the parameters (default: the
    /// table's defaults). Event frames count from the first sample.
    public static func analyse(_ samples: [Float], sampleRate: Double, values: ParameterValues? = nil,
                               blockSize: Int = 256) throws -> [BeatEvent] {
        let host = try EngineHost(sampleRate: sampleRate, values: values)
        return OfflineRenderer(host: host, blockSize: blockSize).analyse(samples)
    }

    /// One channel from several: their average.
    public static func mono(_ channels: [[Float]]) -> [Float] {
        guard let first = channels.first else { return [] }
        guard channels.count > 1 else { return first }
        let scale = 1 / Float(channels.count)
        return first.indices.map { i in channels.reduce(0) { $0 + $1[i] } * scale }
    }
}
