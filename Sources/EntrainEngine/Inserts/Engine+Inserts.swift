import EntrainCore
import EntrainDSP

extension Engine {
    /// The insert commands, on their frame inside `render` (plain stores: no plugin code runs here).
    @inline(__always)
    mutating func applyInsert(_ command: Command) {
        switch command.action {
        case .insertChain(let bus, let chain):
            inserts.receive(bus: Int(bus), chain: chain?.assumingMemoryBound(to: InsertChain.self))
        case .insertControl(let slot, let port, let value):
            slot.assumingMemoryBound(to: InsertSlot.self).pointee.controls[Int(port)] = value
        case .insertHeard(let slot, let heard, let fadeFrames):
            slot.assumingMemoryBound(to: InsertSlot.self).pointee.heard(heard, frames: Int(fadeFrames))
        default: break
        }
    }

    /// After the checked render of a chunk: each bus with a chain has its faded mix waiting;
    /// run the plugins on it (C code the compiler cannot check, like FFTW's at the other edge),
    /// then the panic mute and the ceiling limiter into the ports. The limiter is always last.
    @inline(__always)
    mutating func finishInserts(_ io: PortBuffers, frames: Int) {
        // `frame` has moved past the chunk: it started `frames` earlier.
        let n = Self.maximumChunk
        if let chain = inserts.entrainment, let l = io[.entrainmentL], let r = io[.entrainmentR] {
            chain.pointee.process(mix, mix + n, frames: frames, chord: ambient.chordNotes, start: frame - Int64(frames))
            entrainmentBus.finish(mix, mix + n, into: l, r, count: frames)
        }
        if let chain = inserts.ambient, let l = io[.ambientL], let r = io[.ambientR] {
            chain.pointee.process(mix + 2 * n, mix + 3 * n, frames: frames, chord: ambient.chordNotes, start: frame - Int64(frames))
            ambientBus.finish(mix + 2 * n, mix + 3 * n, into: l, r, count: frames)
        }
        if let chain = inserts.haptic, let out = io[.haptic] {
            chain.pointee.process(inserts.hapticSignal, inserts.hapticSignal + n, frames: frames, chord: ambient.chordNotes, start: frame - Int64(frames))
            haptic.finish(inserts.hapticSignal, into: out, count: frames)
        }
    }

    /// Take the chains that arrived (at a chunk's start); the haptic plugin writes its signal
    /// for the chain, unclamped, while the haptic bus has one.
    @inline(__always)
    mutating func adoptInserts() {
        inserts.adoptIncoming()
        haptic.beforeInserts = inserts.haptic == nil ? nil : inserts.hapticSignal
    }

    /// Where the insert chains hand back the chains they replaced (the control side frees them).
    public var retiredInsertChains: UnsafeMutablePointer<SPSCRing<UInt>> { inserts.retired }
}

extension OutputBus {
    /// With inserts on the bus: the start/stop fade alone, in place on the mix (the plugins see
    /// the faded signal; the mute and the ceiling wait for `finish`, after them).
    @inline(__always)
    mutating func fadeInPlace(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        var g = fadeGain()
        for i in range {
            if fade.isMoving { _ = fade.next(); g = fadeGain() }
            left[i] *= g
            right[i] *= g
        }
    }

    @inline(__always)
    func fadeGain() -> Float {
        let s = FastMath.sinTurns(0.25 * fade.value)
        return Float(s * s)
    }

    /// With inserts: the panic mute and the ceiling limiter, from the chain's output into the ports.
    @inline(__always)
    mutating func finish(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
                         into outLeft: UnsafeMutablePointer<Float>, _ outRight: UnsafeMutablePointer<Float>, count: Int) {
        var bus = self
        defer { self = bus }
        for i in 0..<count {
            if bus.mute.isMoving { _ = bus.mute.next() }
            let m = Float(bus.mute.value)
            var l = left[i].isFinite ? left[i] * m : 0
            var r = right[i].isFinite ? right[i] * m : 0
            bus.limiter.process(&l, &r)
            outLeft[i] = l
            outRight[i] = r
            bus.peakLeft = max(bus.peakLeft, abs(l))
            bus.peakRight = max(bus.peakRight, abs(r))
        }
        bus.gain = bus.gainNow()
    }
}

extension Engine {
    /// The most frames one chunk hands a plugin (its buffers' size and the block-length bound).
    public static var maximumChunkFrames: Int { maximumChunk }
}

extension HapticPlugin {
    /// With inserts on the haptic bus: the chain's output through the ceiling (and silence on
    /// blackout or freewheel, whatever a plugin's tail holds) into the port.
    @inline(__always)
    func finish(_ signal: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, count: Int) {
        let silent = blackout || freewheeling
        for i in 0..<count {
            let x = signal[i].isFinite ? signal[i] : 0
            out[i] = silent ? 0 : min(ceiling, max(-ceiling, x))
        }
    }
}
