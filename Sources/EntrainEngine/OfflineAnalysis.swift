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
            renderBlock(n, before: { io in
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
