import EntrainCore
import EntrainDSP
import Foundation
import Synchronization

/// An offline render to a WAV file: the engine with a counting clock, fading in at the start
/// and out so the fade ends on the last frame. What `entrain render` runs, and what `bench` times.
public struct RenderJob {
    public var values: ParameterValues
    public var duration: Double
    public var sampleRate: Int
    public var format: WAVWriter.Format
    /// Frames per engine call. The output does not depend on it; 256 keeps the engine's
    /// buffers in the first-level cache (measured faster than 1024 or 4096).
    public var blockSize = 256
    /// Called before each engine block with the host and the frame the block reaches: how a
    /// session program sends its changes (the same way the live loop does).
    public var schedule: ((EngineHost, Int64) throws -> Void)?
    /// The pairs summed into the output file (two: summed under the ceiling by a limiter).
    public var mix: [OutputPair] = [.entrainment]
    /// Where to write one file per pair in `mix` as well (`entrainment.wav`, `ambient.wav`).
    public var stemsDirectory: URL?
    /// The ambient reverb's structure, fixed when the engine is made.
    public var ambientQuality = FDNReverb.Quality.balanced
    /// Called once the engine exists, before the first block, with the frame where the fade-out
    /// starts (how the ambient conductor is attached).
    public var prepare: ((EngineHost, _ fadeOutFrame: Int64) throws -> Void)?
    /// Asked between chunks (a few milliseconds apart): a reason to stop, such as a signal
    /// received. The render then throws `Interrupted` and its temporary files are removed.
    public var interruption: (() -> String?)?
    /// Music for the mix input (`render --mix`), read as the render goes; at its sample rate.
    public var mixInput: SoundFileReader?
    /// Told the frames rendered so far and the total, between chunks: for a progress display.
    public var progress: ((_ done: Int, _ total: Int) -> Void)?

    /// The render was stopped by `interruption`; nothing was written to the target.
    public struct Interrupted: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "render stopped (\(reason)): nothing written" }
    }

    public init(values: ParameterValues, duration: Double, sampleRate: Int, format: WAVWriter.Format) {
        self.values = values
        self.duration = duration
        self.sampleRate = sampleRate
        self.format = format
    }

    public struct Result {
        public let frames: Int
        public let peak: Float
        /// Set when the fades were shortened to fit the duration.
        public let note: String?
    }

    public func run(to url: URL) throws -> Result {
        let (fitted, note) = try fadesFitted()
        precondition(!mix.isEmpty, "a render needs at least one output pair")
        let host = try EngineHost(sampleRate: Double(sampleRate), values: fitted, ambientQuality: ambientQuality)
        let frames = Int((duration * Double(sampleRate)).rounded())
        let fadeOutFrames = Int(try host.value(of: "/master/fade-out") * Double(sampleRate))
        let fadeOutStart = Int64(max(0, frames - fadeOutFrames))
        try host.stop(at: fadeOutStart)
        try prepare?(host, fadeOutStart)

        let output = try RenderOutput(main: url, stems: stemsDirectory, pairs: mix, format: format, sampleRate: sampleRate,
                                      frames: frames, ceiling: try host.value(of: "/master/ceiling"))
        try renderPipelined(host: host, frames: frames, into: output)
        try output.finish()
        return Result(frames: frames, peak: output.peak, note: note)  // what the main file holds
    }

    /// The engine renders chunks on this thread while a second thread converts and writes the
    /// previous ones: on two cores the file costs little more than the engine itself.
    /// A small ring of chunk buffers bounds memory; writes stay in order.
    private func renderPipelined(host: EngineHost, frames: Int, into output: RenderOutput) throws {
        let chunkFrames = 64 * blockSize, chunkCount = 4, channels = 2 * mix.count
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: channels * chunkFrames * chunkCount)
        defer { storage.deallocate() }
        // Made empty and filled: libdispatch traps when a semaphore is released below the value
        // it was made with, which an error or interruption part-way would leave it at.
        let free = DispatchSemaphore(value: 0)
        for _ in 0..<chunkCount { free.signal() }
        let writes = DispatchQueue(label: "entrain.render.writer")
        defer { writes.sync {} }  // however this ends, the writer is idle before the buffers go
        // The writer's first error, read by the render thread without waiting for the writer: a
        // `writes.sync` here each chunk queued behind every pending write, and the two threads
        // took turns instead of working side by side.
        final class Failure: Sendable { let error = Mutex<(any Error)?>(nil) }
        let failure = Failure()
        let renderer = OfflineRenderer(host: host, blockSize: blockSize)
        if let mixInput { renderer.mixSource = { mixInput.read(left: $0, right: $1, frames: $2) } }
        var done = 0, chunk = 0
        while done < frames {
            free.wait()
            if let error = failure.error.withLock({ $0 }) { throw error }
            if let reason = interruption?() { throw Interrupted(reason: reason) }
            let slot = Chunk(base: storage + (chunk % chunkCount) * channels * chunkFrames, frames: min(chunkFrames, frames - done),
                             stride: chunkFrames, pairs: mix)
            try renderer.render(frames: slot.frames, into: slot.targets,
                                beforeBlock: schedule.map { schedule in { try schedule(host, $0) } })
            writes.async {
                if failure.error.withLock({ $0 == nil }) {
                    do { try output.write(slot.channels, frames: slot.frames) } catch { failure.error.withLock { $0 = error } }
                }
                free.signal()
            }
            done += slot.frames
            chunk += 1
            progress?(done, frames)
        }
        writes.sync {}
        if let error = failure.error.withLock({ $0 }) { throw error }
    }

    /// One chunk of the pipeline: each pair's left then right samples, `stride` apart. Handed
    /// from the render thread to the writer thread and back through the semaphore, never shared.
    // @unchecked: a chunk's memory belongs to one thread at a time, handed over by the semaphore.
    private struct Chunk: @unchecked Sendable {
        let base: UnsafeMutablePointer<Float>
        let frames: Int
        let stride: Int
        let pairs: [OutputPair]
        var targets: [(OutputPair, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)] {
            pairs.enumerated().map { k, pair in (pair, base + 2 * k * stride, base + (2 * k + 1) * stride) }
        }
        var channels: [UnsafePointer<Float>] { (0..<(2 * pairs.count)).map { UnsafePointer(base + $0 * stride) } }
    }

    /// Fade-in and fade-out must fit in the render; if they do not, both shrink in proportion.
    func fadesFitted() throws -> (ParameterValues, String?) {
        let table = Engine.parameterTable
        let fadeIn = try table.entry(for: "/master/fade-in").index
        let fadeOut = try table.entry(for: "/master/fade-out").index
        let total = values[fadeIn] + values[fadeOut]
        guard total > duration else { return (values, nil) }
        var fitted = values
        fitted[fadeIn] *= duration / total
        fitted[fadeOut] *= duration / total
        let note = String(format: "fades shortened to %.2f s in and %.2f s out to fit %.2f s",
                          fitted[fadeIn], fitted[fadeOut], duration)
        return (fitted, note)
    }
}
