import EntrainCore

/// Drives an engine without JACK: a counting clock and plain buffers, through the very same
/// `Engine.process` the process callback calls. The block size does not change the output.
public final class OfflineRenderer {
    public let host: EngineHost
    public let blockSize: Int
    /// One buffer per port, blockSize frames each, in one allocation.
    private let storage: UnsafeMutablePointer<Float>
    private var io = PortBuffers()
    /// Fills the mix input (mix_L/R) before each block of `render(frames:into:)`, as music
    /// arriving on those ports would; nil: no input (silence).
    public var mixSource: ((_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ frames: Int) -> Void)?

    public init(host: EngineHost, blockSize: Int = 256) {
        precondition(blockSize > 0)
        self.host = host
        self.blockSize = blockSize
        storage = .allocate(capacity: blockSize * ClientPort.allCases.count)
        storage.initialize(repeating: 0, count: blockSize * ClientPort.allCases.count)
        for port in ClientPort.allCases { io[port] = storage + port.rawValue * blockSize }
    }

    deinit { storage.deallocate() }

    /// Render one block of `n` ≤ blockSize frames; `body` reads the port buffers.
    public func renderBlock<T>(_ n: Int, _ body: (PortBuffers) throws -> T) rethrows -> T {
        precondition(n > 0 && n <= blockSize)
        process(io, frames: n)
        return try body(io)
    }

    /// Render one block of `n` ≤ blockSize frames after `fill` has written the input ports.
    /// (Not an overload of renderBlock: a trailing closure would pick either.)
    public func feedBlock(_ n: Int, fill: (PortBuffers) -> Void) {
        precondition(n > 0 && n <= blockSize)
        fill(io)
        process(io, frames: n)
    }

    /// Render `frames` frames, handing each block's entrainment pair to `consume`.
    public func render(frames: Int, _ consume: (_ left: UnsafeBufferPointer<Float>,
                                                _ right: UnsafeBufferPointer<Float>) throws -> Void) rethrows {
        var done = 0
        while done < frames {
            let n = min(blockSize, frames - done)
            try renderBlock(n) { io in
                try consume(UnsafeBufferPointer(start: io[.entrainmentL], count: n),
                            UnsafeBufferPointer(start: io[.entrainmentR], count: n))
            }
            done += n
        }
    }

    /// Render `frames` of the entrainment pair straight into `left` and `right` (no copy).
    /// `beforeBlock` gets the engine frame just past each block before it renders (to send
    /// what is due by then, as a live control loop would).
    public func render(frames: Int, intoLeft left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       beforeBlock: ((Int64) throws -> Void)? = nil) rethrows {
        try render(frames: frames, into: [(.entrainment, left, right)], beforeBlock: beforeBlock)
    }

    /// Render `frames` of each given pair straight into its buffers; ports not given are not rendered.
    public func render(frames: Int, into pairs: [(OutputPair, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)],
                       beforeBlock: ((Int64) throws -> Void)? = nil) rethrows {
        var done = 0
        while done < frames {
            let n = min(blockSize, frames - done)
            try beforeBlock?(host.frame + Int64(n))
            var direct = PortBuffers()
            for (pair, left, right) in pairs {
                direct[pair.left] = left + done
                direct[pair.right] = right + done
            }
            if let mixSource, let left = io[.mixL], let right = io[.mixR] {
                mixSource(left, right, n)
                direct[.mixL] = left
                direct[.mixR] = right
            }
            process(direct, frames: n)
            done += n
        }
    }

    /// One block, after handing the engine the scheduled commands due by then (as the live
    /// control loop does every few milliseconds).
    private func process(_ buffers: PortBuffers, frames: Int) {
        host.feed()
        host.engine.pointee.process(buffers, frames: frames)
    }

    /// Render into memory: (left, right) of the entrainment output.
    public func renderStereo(frames: Int) -> (left: [Float], right: [Float]) {
        var left: [Float] = [], right: [Float] = []
        left.reserveCapacity(frames)
        right.reserveCapacity(frames)
        render(frames: frames) { l, r in
            left.append(contentsOf: l)
            right.append(contentsOf: r)
        }
        return (left, right)
    }
}
