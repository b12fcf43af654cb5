/// Block renderers for the ambient kernels: the engine's plugins call these once per period.
/// In optimised builds they carry @_noLocks, so the compiler proves the kernels allocate,
/// lock and retain nothing (the same proof the engine's render has). One loop per concrete
/// type on purpose: a shared generic version cannot carry @_noLocks (unspecialised generic
/// code may need metadata).
extension PadVoice {
    /// Add `frames` frames of this voice into `left`/`right`.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let s = next()
            left[i] += s.left
            right[i] += s.right
        }
    }
}

extension OceanWaves {
    /// Add `frames` frames of the ocean into `left`/`right`.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let s = next()
            left[i] += s.left
            right[i] += s.right
        }
    }
}

extension PadEnsemble {
    /// Add `frames` frames of the six voices into `left`/`right` (voice by voice: see `addVoiceByVoice`).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        addVoiceByVoice(into: left, right, frames: frames)
    }
}

extension AmbientMix {
    /// The pad bus `padL`/`padR` in, `frames` frames of the ambient master written to `left`/`right`.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func mix(_ padL: UnsafePointer<Float>, _ padR: UnsafePointer<Float>,
                             into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let (l, r) = process(padL[i], padR[i])
            left[i] = l
            right[i] = r
        }
    }

    /// As `mix`, with the lead's and drums' direct signal and reverb sends (`bus`: direct L/R,
    /// send L/R, one block each).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func mix(_ padL: UnsafePointer<Float>, _ padR: UnsafePointer<Float>, bus: AmbientSound.Scratch,
                             into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let (l, r) = process(padL[i], padR[i], direct: SIMD2(bus.directL[i], bus.directR[i]),
                                 send: SIMD2(bus.sendL[i], bus.sendR[i]))
            left[i] = l
            right[i] = r
        }
    }
}
