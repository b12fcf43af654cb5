import CFFTW
import Foundation
import Synchronization

/// The FFT edge of the beat analysis: cuts `beat_in` into Hann-windowed frames every hop and
/// turns each into log-compressed magnitudes with FFTW.
///
/// FFTW's execute is a C call @_noLocks cannot see into, so this runs just before the checked
/// render (`Engine.process`); the run-time probe test covers it. Plans are made here, at prepare
/// time, never on the process thread. Everything after the spectrum is pure Swift in the kernel.
struct BeatSpectrum {
    /// About 10.7 ms of input per frame (512 at 44.1/48 kHz), a new frame every quarter of it.
    let windowSize: Int
    let hopSize: Int
    let bins: Int
    /// Sub-blocks of a hop whose energies the kernel uses to place an onset on its exact frame.
    let subBlockSize: Int
    var subBlocksPerHop: Int { hopSize / subBlockSize }
    /// Most hops one call can complete.
    let maximumHops: Int

    // The last `windowSize` input samples, as a ring.
    private let history: UnsafeMutablePointer<Float>
    private var writePosition = 0
    private let window: UnsafeMutablePointer<Double>
    private let fftInput: UnsafeMutablePointer<Double>
    private let fftOutput: UnsafeMutablePointer<fftw_complex>
    private let plan: fftw_plan
    private var hopFill = 0
    private var subFill = 0
    private var subSum: Float = 0

    // What the last call produced, per completed hop; the kernel sets hopCount to 0 once read.
    var hopCount = 0
    /// Offset (in the call's frames) just past each hop's last sample.
    let hopEnds: UnsafeMutablePointer<Int>
    /// log(1 + 1000·|X|/(N/4)) per bin: a full-scale sine reads log(1001), −60 dB the knee.
    let magnitudes: UnsafeMutablePointer<Float>
    /// Sum of squares per sub-block, hop after hop.
    let subEnergies: UnsafeMutablePointer<Float>

    /// FFTW's planner is not thread-safe; engines may be prepared on different threads.
    private static let planner = Mutex(())

    init(sampleRate: Double, maximumFrames: Int) {
        var size = 256
        while Double(size) * 1.5 < sampleRate * 0.0107 { size *= 2 }
        windowSize = size
        hopSize = size / 4
        bins = size / 2 + 1
        subBlockSize = max(1, hopSize / 8)
        maximumHops = maximumFrames / hopSize + 1
        history = .allocate(capacity: size)
        history.initialize(repeating: 0, count: size)
        window = .allocate(capacity: size)
        for i in 0..<size { window[i] = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size)) }
        let input = fftw_alloc_real(size)!, output = fftw_alloc_complex(size / 2 + 1)!
        input.initialize(repeating: 0, count: size)
        fftInput = input
        fftOutput = output
        plan = Self.planner.withLock { _ in
            fftw_plan_dft_r2c_1d(Int32(size), input, output, UInt32(FFTW_ESTIMATE))!
        }
        hopEnds = .allocate(capacity: maximumHops)
        magnitudes = .allocate(capacity: maximumHops * bins)
        magnitudes.initialize(repeating: 0, count: maximumHops * bins)
        subEnergies = .allocate(capacity: maximumHops * (hopSize / subBlockSize))
    }

    func deallocate() {
        Self.planner.withLock { _ in fftw_destroy_plan(plan) }
        fftw_free(fftInput)
        fftw_free(fftOutput)
        history.deallocate()
        window.deallocate()
        hopEnds.deallocate()
        magnitudes.deallocate()
        subEnergies.deallocate()
    }

    /// Hops in a row whose input was digital silence: once the whole window is silent the
    /// spectrum is zero, and the FFT is skipped (an unconnected beat_in costs next to nothing).
    private var silentHops = 0
    private var hopEnergy: Float = 0
    /// Frames of digital silence in a row, in whole hops.
    var silentFrames: Int { silentHops * hopSize }

    /// Take `frames` ≤ maximumHops·hopSize input samples (nil = silence); compute a spectrum for
    /// every hop completed. Real-time safe: no allocation, FFTW's new-array execute on our buffers.
    mutating func analyse(_ input: UnsafePointer<Float>?, frames: Int) {
        hopCount = 0
        let mask = windowSize - 1, subs = subBlocksPerHop
        for i in 0..<frames {
            let x = input?[i] ?? 0
            history[writePosition] = x
            writePosition = (writePosition + 1) & mask
            subSum += x * x
            subFill += 1
            if subFill == subBlockSize {
                if hopCount < maximumHops { subEnergies[hopCount * subs + hopFill / subBlockSize] = subSum }
                hopEnergy += subSum
                subSum = 0
                subFill = 0
            }
            hopFill += 1
            if hopFill == hopSize {
                hopFill = 0
                silentHops = hopEnergy == 0 ? silentHops + 1 : 0
                hopEnergy = 0
                guard hopCount < maximumHops else { continue }
                hopEnds[hopCount] = i + 1
                if silentHops * hopSize > windowSize {
                    (magnitudes + hopCount * bins).update(repeating: 0, count: bins)
                } else {
                    transform(into: magnitudes + hopCount * bins)
                }
                hopCount += 1
            }
        }
    }

    private func transform(into out: UnsafeMutablePointer<Float>) {
        let mask = windowSize - 1
        for i in 0..<windowSize {
            fftInput[i] = Double(history[(writePosition + i) & mask]) * window[i]
        }
        fftw_execute_dft_r2c(plan, fftInput, fftOutput)
        let scale = 1000 / Double(windowSize / 4)
        for k in 0..<bins {
            let re = fftOutput[k].0, im = fftOutput[k].1
            out[k] = Self.roughLog(1 + Float(scale * (re * re + im * im).squareRoot()))
        }
    }

    /// Natural log to about 0.5 %: exponent bits plus a quadratic on the mantissa. Ample for
    /// compressing magnitudes, and several times cheaper than libm's log1p on 375 × 257 bins/s.
    @inline(__always)
    static func roughLog(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xff) - 127)
        let m = Float(bitPattern: (bits & 0x7f_ffff) | 0x3f80_0000)  // [1, 2)
        let log2 = exponent + (-0.344_848_43 * m + 2.024_665_78) * m - 1.679_817_35  // 0 at x = 1
        return log2 * 0.693_147_18
    }
}
