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
    /// Each frame does `process`'s arithmetic, but in three passes over the block — the
    /// granulator and the sends, the reverb on the whole block (its diffusers stage by stage),
    /// the ocean and the sum — so the samples are `process`'s frame by frame.
    public mutating func mix(_ padL: UnsafePointer<Float>, _ padR: UnsafePointer<Float>, bus: AmbientSound.Scratch,
                             into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        let s = Self.scratchFrames
        let wetL = scratch, wetR = scratch + s, reverbL = scratch + 2 * s, reverbR = scratch + 3 * s
        var done = 0
        while done < frames {
            let count = min(s, frames - done)
            for n in 0..<count {
                let i = done + n
                let (gL, gR) = granulator.process(padL[i], padR[i])
                wetL[n] = lpfL.process(hpfL.process(gL)); wetR[n] = lpfR.process(hpfR.process(gR))
                reverbL[n] = padL[i] * synthSend + wetL[n] * granularSend + bus.sendL[i] * otherSends
                reverbR[n] = padR[i] * synthSend + wetR[n] * granularSend + bus.sendR[i] * otherSends
            }
            reverb.process(left: reverbL, right: reverbR, frames: count)
            for n in 0..<count {
                let i = done + n
                let waves = ocean.next()
                let oL = oceanFilterL.process(waves.left) * oceanGain, oR = oceanFilterR.process(waves.right) * oceanGain
                let l = padL[i] * synthDirect + wetL[n] * granularDirect + reverbL[n] * reverbReturn + oL + bus.directL[i]
                let r = padR[i] * synthDirect + wetR[n] * granularDirect + reverbR[n] * reverbReturn + oR + bus.directR[i]
                left[i] = l * master
                right[i] = r * master
            }
            done += count
        }
    }
}
