import CJack
import EntrainCore
import EntrainEngine
import Synchronization

/// Everything the process callback touches, in one block of plain memory (no classes, no ARC).
///
/// The engine pointer can be replaced while running (sample-rate change, re-prepare): the
/// control side publishes the new one in `incoming`; the process thread takes it at the start
/// of a period and hands the old one back through `retired` for the control side to free.
struct ProcessContext: ~Copyable {
    var ports = InlineArray<7, OpaquePointer?>(repeating: nil)
    var engine: UnsafeMutablePointer<Engine>?
    let incoming = Atomic<UnsafeMutablePointer<Engine>?>(nil)
    let retired = Atomic<UnsafeMutablePointer<Engine>?>(nil)
    let xruns = Atomic<Int>(0)
    let serverGone = Atomic<Bool>(false)
    let sampleRate = Atomic<Int>(0)
    let bufferSize = Atomic<Int>(0)
    /// Playback latency of entrainment_L in frames (max of the range), from the latency callback.
    let playbackLatency = Atomic<Int>(0)

    init() {}

    /// The JACK process callback's body. Its only C calls are jack_port_get_buffer; the engine's
    /// render is compiler-checked with @_noLocks, and the run-time probe test covers the rest.
    mutating func process(frames: jack_nframes_t) {
        if let next = incoming.exchange(nil, ordering: .acquiring) {
            retired.store(engine, ordering: .releasing)
            engine = next
        }
        var io = PortBuffers()
        for i in 0..<7 {
            if let port = ports[i] {
                io.buffers[i] = jack_port_get_buffer(port, frames)?.assumingMemoryBound(to: Float.self)
            }
        }
        if let engine {
            engine.pointee.render(io, frames: Int(frames))
        } else {
            for i in 0..<7 where i != ClientPort.beatIn.rawValue {
                if let buffer = io.buffers[i] { buffer.update(repeating: 0, count: Int(frames)) }
            }
        }
    }
}
