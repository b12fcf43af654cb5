import EntrainCore
import EntrainEngine
import EntrainLV2
import Foundation

/// The cost of one hosted LV2 slot on the entrainment bus (copy in, the plugin's run, the
/// crossfade check, copy out) at a 256-frame period: with the plugin minus without.
extension Bench {
    static let benchPlugins = [
        "http://plugin.org.uk/swh-plugins/amp", "http://plugin.org.uk/swh-plugins/lowpass_iir",
        "http://drobilla.net/plugins/mda/Limiter", "http://gareus.org/oss/lv2/fil4#stereo",
        "http://gareus.org/oss/lv2/dpl#stereo", "http://lsp-plug.in/plugins/lv2/compressor_stereo",
    ]

    func benchInserts(_ values: ParameterValues) throws {
        let frames = Int(processSeconds * 48_000)
        let bare = try median { try timeInserts(values, uri: nil, frames: frames) }
        for uri in Self.benchPlugins {
            guard let plugin = LV2World.shared.plugin(uri), plugin.insertRefusal == nil else {
                print("LV2 slot \(uri): not installed or not hostable, skipped")
                continue
            }
            let with = try median { try timeInserts(values, uri: uri, frames: frames) }
            let nsPerFrame = max(0, with - bare) / Double(frames) * 1e9
            print(String(format: "LV2 slot on the entrainment bus, period 256: %@ (%@): %.1f ns/frame = %.2f %% of one core at 48 kHz",
                         plugin.name, plugin.ports(.audioIn).count == 1 ? "linked pair" : "stereo", nsPerFrame, nsPerFrame * 48_000 / 1e9 * 100))
        }
    }

    /// CPU seconds for `frames` of the entrainment pair with `uri` (nil: none) as its one insert.
    func timeInserts(_ values: ParameterValues, uri: String?, frames: Int) throws -> Double {
        let host = try EngineHost(sampleRate: 48_000, values: values)
        let chains = InsertChains(host: host)
        if let uri { try chains.add(uri, to: .entrainment) }
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 256), right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        var checksum: Float = 0
        let elapsed = time {
            var done = 0
            while done < frames {
                let n = min(256, frames - done)
                renderer.render(frames: n, intoLeft: left, right: right)
                checksum += left[0]
                done += n
            }
        }
        if checksum.isNaN { print("(checksum NaN)") }
        chains.collect()
        return elapsed
    }
}
