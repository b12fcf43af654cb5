import EntrainAmbient
import EntrainCore
import EntrainDSP
import EntrainEngine
import Foundation
import Kessho

/// The ambient engine's cost: each Kessho preset at a 64-frame period (ambient pair only), then
/// the heaviest one with every other port connected too (the full engine).
extension Bench {
    func benchAmbient(_ values: ParameterValues) throws {
        let directory = URL(fileURLWithPath: ambientPresets)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            print("ambient: no presets at \(ambientPresets) (--ambient-presets DIR)")
            return
        }
        var costs: [(name: String, preset: KesshoPreset, perSecond: Double)] = []
        for name in names.sorted() where name.hasSuffix(".json") && name != "manifest.json" {
            let preset = try KesshoPresetLoader.load(contentsOf: directory.appendingPathComponent(name)).preset
            let perSecond = try median { try timeAmbient(preset, values: values, allPorts: false) } / processSeconds
            costs.append((name, preset, perSecond))
            print(String(format: "ambient engine, %@, period 64: %.1f ms per second of audio = %.1f %% of one core",
                         name, perSecond * 1000, perSecond * 100))
        }
        guard let heaviest = costs.max(by: { $0.perSecond < $1.perSecond }) else { return }
        for quality in [FDNReverb.Quality.lite, .ultra] {
            let perSecond = try median { try timeAmbient(heaviest.preset, values: values, allPorts: false, quality: quality) } / processSeconds
            print(String(format: "ambient engine, %@, reverb quality %@, period 64: %.1f %% of one core",
                         heaviest.name, quality == .lite ? "lite" : "ultra", perSecond * 100))
        }
        let full = try median { try timeAmbient(heaviest.preset, values: values, allPorts: true) } / processSeconds
        print(String(format: "full engine (entrainment + ambient %@ + beat analysis + LED/haptic), period 64: %.1f %% of one core",
                     heaviest.name, full * 100))
    }

    /// Seconds to render `processSeconds` of the ambient engine playing `state`, in 64-frame
    /// periods, pumping the conductor before each as the live loop would.
    func timeAmbient(_ preset: KesshoPreset, values: ParameterValues, allPorts: Bool,
                     quality: FDNReverb.Quality = .balanced) throws -> Double {
        let host = try EngineHost(sampleRate: 48_000, values: values, ambientQuality: quality)
        let conductor = AmbientConductor(host: host, state: preset.state, sliders: KesshoSliders(preset), seed: 1, lookaheadSeconds: 64.0 / 48_000) {
            .init(frame: host.frame, unixSeconds: 1_770_040_800 + Double(host.frame) / 48_000)
        }
        try conductor.play()
        let renderer = OfflineRenderer(host: host, blockSize: 64)
        let frames = Int(processSeconds * 48_000)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 64), right = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { left.deallocate(); right.deallocate() }
        var checksum: Float = 0
        let elapsed = try time {
            for _ in 0..<(frames / 64) {
                try conductor.pump()
                if allPorts {
                    renderer.renderBlock(64) { io in checksum += io[.ambientL]![0] }
                } else {
                    renderer.render(frames: 64, into: [(.ambient, left, right)])
                    checksum += left[0]
                }
            }
        }
        if checksum.isNaN { print("warning: NaN in ambient output") }
        return elapsed
    }
}
