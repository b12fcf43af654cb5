import EntrainCore
import Foundation

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
        let host = try EngineHost(sampleRate: Double(sampleRate), values: fitted)
        let frames = Int((duration * Double(sampleRate)).rounded())
        let fadeOutFrames = Int(try host.value(of: "/master/fade-out") * Double(sampleRate))
        try host.stop(at: Int64(max(0, frames - fadeOutFrames)))

        let writer = try WAVWriter(url: url, format: format, channels: 2, sampleRate: sampleRate, expectedFrames: frames)
        let peak = try renderPipelined(host: host, frames: frames, into: writer)
        try writer.finish()
        return Result(frames: frames, peak: peak, note: note)
    }

    /// The engine renders chunks on this thread while a second thread converts and writes the
    /// previous ones: on two cores the file costs little more than the engine itself.
    /// A small ring of chunk buffers bounds memory; writes stay in order.
    private func renderPipelined(host: EngineHost, frames: Int, into writer: WAVWriter) throws -> Float {
        let chunkFrames = 64 * blockSize, chunkCount = 4
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: 2 * chunkFrames * chunkCount)
        defer { storage.deallocate() }
        let free = DispatchSemaphore(value: chunkCount)
        let writes = DispatchQueue(label: "entrain.render.writer")
        final class Failure: @unchecked Sendable { var error: Error? }  // touched on `writes` only
        let failure = Failure()
        let renderer = OfflineRenderer(host: host, blockSize: blockSize)
        _ = host.status.pointee.takePeaks()
        var done = 0, chunk = 0
        while done < frames {
            free.wait()
            if let error = writes.sync(execute: { failure.error }) { throw error }
            let slot = Chunk(left: storage + (chunk % chunkCount) * 2 * chunkFrames, frames: min(chunkFrames, frames - done),
                             stride: chunkFrames)
            try renderer.render(frames: slot.frames, intoLeft: slot.left, right: slot.right,
                                beforeBlock: schedule.map { schedule in { try schedule(host, $0) } })
            writes.async {
                if failure.error == nil {
                    do { try writer.write([slot.leftBuffer, slot.rightBuffer]) } catch { failure.error = error }
                }
                free.signal()
            }
            done += slot.frames
            chunk += 1
        }
        if let error = writes.sync(execute: { failure.error }) { throw error }
        let peaks = host.status.pointee.takePeaks()
        return max(peaks.left, peaks.right)
    }

    /// One chunk of the pipeline: left samples, then right ones `stride` further on. Handed from
    /// the render thread to the writer thread and back through the semaphore, never shared.
    private struct Chunk: @unchecked Sendable {
        let left: UnsafeMutablePointer<Float>
        let frames: Int
        let stride: Int
        var right: UnsafeMutablePointer<Float> { left + stride }
        var leftBuffer: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: left, count: frames) }
        var rightBuffer: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: right, count: frames) }
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
