import EntrainDSP
import Foundation
import XCTest

/// The FDN reverb's impulse response, measured: its decay time follows from the feedback gain
/// and the line lengths. Every line loses the same g per pass, so short lines lose it more
/// often: energy falls at the mean of the lines' rates, T60 = 3·H / −log10 g with H the
/// harmonic mean length (in seconds), as an energy-keeping (orthogonal) mix must give.
final class FDNReverbTests: XCTestCase {
    /// RT60 from the impulse response by Schroeder backward integration, fitted from −5 to −25 dB.
    func rt60(_ settings: FDNReverb.Settings, quality: FDNReverb.Quality = .balanced, seconds: Double) -> Double {
        var reverb = FDNReverb(sampleRate: 48_000, quality: quality, settings: settings)
        defer { reverb.deallocate() }
        for _ in 0..<48_000 { _ = reverb.process(0, 0) }  // let the damping glide settle
        var energy = [Double](repeating: 0, count: Int(seconds * 48_000))
        for i in energy.indices {
            let (l, r) = reverb.process(i == 0 ? 1 : 0, i == 0 ? 1 : 0)
            energy[i] = Double(l * l + r * r)
        }
        var remaining = energy.reduce(0, +)
        let total = remaining
        var t5: Double?, t25: Double?
        for (i, e) in energy.enumerated() {
            let level = 10 * log10(remaining / total)
            if t5 == nil && level <= -5 { t5 = Double(i) / 48_000 }
            if t25 == nil && level <= -25 { t25 = Double(i) / 48_000; break }
            remaining -= e
        }
        guard let t5, let t25 else { return .infinity }
        return 3 * (t25 - t5)
    }

    func expected(feedback: Double, size: Double, milliseconds: [Double]) -> Double {
        let harmonic = Double(milliseconds.count) / milliseconds.reduce(0) { $0 + 1 / $1 } / 1000 * size
        return 3 * harmonic / -log10(feedback)
    }

    static let eight = [37.3, 43.7, 53.1, 61.7, 71.3, 83.9, 97.1, 109.3]

    /// Plate at decay 0 and size 1, nothing that colours the decay: no damping, modulation or predelay.
    static var plainPlate: FDNReverb.Settings {
        var plate = FDNReverb.Settings()
        plate.type = .plate
        plate.decay = 0
        plate.damping = 0
        plate.modulation = 0
        plate.predelayMilliseconds = 0
        plate.size = 1
        return plate
    }

    func testDecayTimeFollowsFeedbackAndSize() {
        var plate = Self.plainPlate
        let short = rt60(plate, seconds: 6)
        XCTAssertEqual(short, expected(feedback: 0.88, size: 1, milliseconds: Self.eight), accuracy: 0.15 * 3.32, "plate, size 1")
        plate.size = 2
        let long = rt60(plate, seconds: 12)
        XCTAssertEqual(long / short, 2, accuracy: 0.2, "twice the size, twice the decay time")

        var hall = plate
        hall.type = .hall
        hall.decay = 0.5
        hall.size = 1
        let g = 0.92 + 0.08 * 0.5 * 0.9
        let hallTime = rt60(hall, seconds: 16)
        XCTAssertEqual(hallTime, expected(feedback: g, size: 1, milliseconds: Self.eight), accuracy: 0.15 * 9.44, "hall, decay 0.5")
        print(String(format: "RT60: plate size 1 %.2f s, size 2 %.2f s, hall decay 0.5 %.2f s", short, long, hallTime))
    }

    /// The lite variant's four lines (41.3 … 103.7 ms) decay at their own rate; ultra shares the
    /// balanced lines (only its diffusers are longer), so its decay time matches balanced.
    func testLiteAndUltraDecayTimes() {
        let plate = Self.plainPlate
        let lite = rt60(plate, quality: .lite, seconds: 8)
        let expectedLite = expected(feedback: 0.88, size: 1, milliseconds: [41.3, 59.7, 79.1, 103.7])
        XCTAssertEqual(lite, expectedLite, accuracy: 0.15 * expectedLite, "lite, plate, size 1")
        let ultra = rt60(plate, quality: .ultra, seconds: 6), balanced = rt60(plate, seconds: 6)
        XCTAssertEqual(ultra / balanced, 1, accuracy: 0.1, "ultra and balanced share the lines")
        print(String(format: "RT60 plate size 1: lite %.2f s (expected %.2f), ultra %.2f s, balanced %.2f s",
                     lite, expectedLite, ultra, balanced))
    }

    func testFeedbackGainAsTheWorkletDerivesIt() {
        var settings = FDNReverb.Settings()  // cathedral, decay 0.9
        var reverb = FDNReverb(sampleRate: 48_000, quality: .balanced, settings: settings)
        defer { reverb.deallocate() }
        XCTAssertEqual(reverb.feedbackGain, 0.9924, accuracy: 1e-4)
        settings.decay = 1
        reverb.apply(settings)
        XCTAssertEqual(reverb.feedbackGain, 0.995, accuracy: 1e-6, "capped at 0.995")
    }

    /// Damping darkens: with more damping, the late response loses its highs.
    func testDampingDarkensTheTail() {
        func highShare(_ damping: Double) -> Double {
            var s = FDNReverb.Settings()
            s.damping = damping
            s.size = 1
            var reverb = FDNReverb(sampleRate: 48_000, quality: .lite, settings: s)
            defer { reverb.deallocate() }
            for _ in 0..<48_000 { _ = reverb.process(0, 0) }
            var previous: Float = 0, high = 0.0, all = 0.0
            for i in 0..<96_000 {
                let (l, _) = reverb.process(i == 0 ? 1 : 0, 0)
                if i > 24_000 { high += Double((l - previous) * (l - previous)); all += Double(l * l) }
                previous = l
            }
            return high / all
        }
        XCTAssertLessThan(highShare(0.8), highShare(0.05) * 0.5)
    }

    /// The block path (diffusers stage by stage over the block) gives the frame-by-frame path's
    /// samples to the bit, at every quality, with a predelay, across the LFOs' 128-frame steps
    /// and blocks longer than its scratch.
    func testBlocksGiveTheFrameByFrameSamples() {
        var settings = FDNReverb.Settings()
        settings.predelayMilliseconds = 23
        for quality in [FDNReverb.Quality.ultra, .balanced, .lite] {
            var frameByFrame = FDNReverb(sampleRate: 48_000, quality: quality, settings: settings)
            var blocks = FDNReverb(sampleRate: 48_000, quality: quality, settings: settings)
            defer { frameByFrame.deallocate(); blocks.deallocate() }
            var noise = RandomSource(seed: 7)
            let frames = 20_000
            let inL = (0..<frames).map { _ in noise.nextBipolar() }, inR = (0..<frames).map { _ in noise.nextBipolar() * 0.5 }
            var left = inL, right = inR
            var done = 0, size = 1
            while done < frames {
                let n = min(size, frames - done)
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        blocks.process(left: l.baseAddress! + done, right: r.baseAddress! + done, frames: n)
                    }
                }
                done += n
                size = size % 700 + 37  // 1, 38, 75, … 689, 26, …: short blocks and ones over 256
            }
            for i in 0..<frames {
                let (l, r) = frameByFrame.process(inL[i], inR[i])
                XCTAssertEqual(left[i].bitPattern, l.bitPattern, "\(quality) left, frame \(i)")
                XCTAssertEqual(right[i].bitPattern, r.bitPattern, "\(quality) right, frame \(i)")
                if left[i].bitPattern != l.bitPattern || right[i].bitPattern != r.bitPattern { break }
            }
        }
    }
}
