import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// Draws a session as SVG: beat frequency on a log scale over the brainwave bands, carrier,
/// and levels against time, with the stages marked — what Gnaural shows as its graph.
public enum SessionPlot {
    static let width = 1000.0, left = 70.0, right = 20.0
    static let bands: [(name: String, low: Double, high: Double, color: String)] = [
        ("delta", 0.5, 4, "#dfe7fb"), ("theta", 4, 8, "#e3f4e1"), ("alpha", 8, 13, "#fdf4d7"),
        ("beta", 13, 30, "#fbe3d3"), ("gamma", 30, 100, "#f3dcf2"),
    ]
    static let colors = ["#1f5fbf", "#c0392b", "#27864a", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#2c3e50", "#b7950b", "#6c3483"]

    public static func svg(_ program: SessionProgram, samples: Int = 800) -> String {
        let total = Double(program.frames) / program.sampleRate
        let table = Engine.parameterTable
        // Sample every parameter over time, from the defaults.
        var series: [String: [Double]] = [:]
        let times = (0...samples).map { total * Double($0) / Double(samples) }
        for t in times {
            var values: [String: Double] = [:]
            for s in program.state(at: Int64(t * program.sampleRate)) { values[s.address] = s.value }
            for entry in table.entries {
                series[entry.descriptor.address, default: []].append(values[entry.descriptor.address] ?? entry.descriptor.defaultNumber)
            }
        }
        let voices = (0..<EntrainmentParameters.voiceCount).filter { v in
            (series["\(EntrainmentParameters.prefix(voice: v))/level"] ?? []).contains { $0 > 0 }
        }
        let plotWidth = width - left - right
        func x(_ t: Double) -> Double { left + plotWidth * t / max(total, 1e-9) }
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="560" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(left)" y="20" font-size="15" font-weight="bold">\(escape(program.session.name))</text>

        """
        // Beat panel: log scale, 0.5–100 Hz, bands shaded.
        let beatTop = 40.0, beatHeight = 220.0
        func yBeat(_ hz: Double) -> Double { beatTop + beatHeight * (1 - log(max(0.5, min(100, hz)) / 0.5) / log(200)) }
        for band in bands {
            out += "<rect x=\"\(f(left))\" y=\"\(f(yBeat(band.high)))\" width=\"\(f(plotWidth))\" height=\"\(f(yBeat(band.low) - yBeat(band.high)))\" fill=\"\(band.color)\"/>\n"
            out += "<text x=\"\(f(width - right - 4))\" y=\"\(f((yBeat(band.low) + yBeat(band.high)) / 2 + 4))\" text-anchor=\"end\" fill=\"#666\">\(band.name)</text>\n"
        }
        for hz in [0.5, 1, 2, 4, 8, 13, 30, 100] {
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(yBeat(hz) + 4))\" text-anchor=\"end\">\(ControlDescriptor.format(hz))</text>\n"
        }
        out += "<text x=\"14\" y=\"\(f(beatTop + beatHeight / 2))\" transform=\"rotate(-90 14 \(f(beatTop + beatHeight / 2)))\" text-anchor=\"middle\">beat (Hz)</text>\n"
        for v in voices {
            out += polyline(times.indices.map { (x(times[$0]), yBeat(series["\(EntrainmentParameters.prefix(voice: v))/beat"]![$0])) },
                            color: colors[v], id: "beat-\(v + 1)")
        }
        // Carrier panel: linear, fitted to the voices' range.
        let carrierTop = 290.0, carrierHeight = 120.0
        let carriers = voices.flatMap { series["\(EntrainmentParameters.prefix(voice: $0))/carrier"]! }
        let low = (carriers.min() ?? 100) * 0.95, high = max((carriers.max() ?? 200) * 1.05, low + 1)
        func yCarrier(_ hz: Double) -> Double { carrierTop + carrierHeight * (1 - (hz - low) / (high - low)) }
        out += frame(top: carrierTop, height: carrierHeight, label: "carrier (Hz)")
        for hz in [low, (low + high) / 2, high] { out += "<text x=\"\(f(left - 6))\" y=\"\(f(yCarrier(hz) + 4))\" text-anchor=\"end\">\(Int(hz.rounded()))</text>\n" }
        for v in voices {
            out += polyline(times.indices.map { (x(times[$0]), yCarrier(series["\(EntrainmentParameters.prefix(voice: v))/carrier"]![$0])) },
                            color: colors[v], id: "carrier-\(v + 1)")
        }
        // Levels panel: 0–1.
        let levelTop = 440.0, levelHeight = 80.0
        func yLevel(_ l: Double) -> Double { levelTop + levelHeight * (1 - l) }
        out += frame(top: levelTop, height: levelHeight, label: "level")
        out += "<text x=\"\(f(left - 6))\" y=\"\(f(yLevel(1) + 4))\" text-anchor=\"end\">1</text><text x=\"\(f(left - 6))\" y=\"\(f(yLevel(0) + 4))\" text-anchor=\"end\">0</text>\n"
        out += polyline(times.indices.map { (x(times[$0]), yLevel(series["/entrain/volume"]![$0])) }, color: "#000", id: "volume", dash: "6 3")
        out += polyline(times.indices.map { (x(times[$0]), yLevel(series["/entrain/noise/level"]![$0])) }, color: "#999", id: "noise")
        for v in voices {
            out += polyline(times.indices.map { (x(times[$0]), yLevel(series["\(EntrainmentParameters.prefix(voice: v))/level"]![$0])) },
                            color: colors[v], id: "level-\(v + 1)")
        }
        // Stages and the time axis.
        var elapsed = 0.0
        for (i, stage) in program.session.stages.enumerated() where program.session.stages.count <= 40 {
            out += "<line x1=\"\(f(x(elapsed)))\" y1=\"\(f(beatTop))\" x2=\"\(f(x(elapsed)))\" y2=\"\(f(levelTop + levelHeight))\" stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n"
            if stage.duration / max(total, 1e-9) > 0.04 {
                out += "<text x=\"\(f(x(elapsed) + 3))\" y=\"\(f(beatTop + 12 + Double(i % 2) * 13))\" fill=\"#333\">\(escape(stage.name))</text>\n"
            }
            elapsed += stage.duration
        }
        let minutes = total / 60, step = max(1, (minutes / 10).rounded(.up))
        var m = 0.0
        while m <= minutes + 1e-9 {
            out += "<text x=\"\(f(x(m * 60)))\" y=\"\(f(levelTop + levelHeight + 16))\" text-anchor=\"middle\">\(Int(m))</text>\n"
            m += step
        }
        out += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(levelTop + levelHeight + 34))\" text-anchor=\"middle\">minutes</text>\n"
        let legend = voices.map { "<tspan fill=\"\(colors[$0])\">voice \($0 + 1)</tspan>" }.joined(separator: "  ")
        out += "<text x=\"\(f(left + 220))\" y=\"20\">\(legend)  <tspan fill=\"#000\">volume (dashed)</tspan>  <tspan fill=\"#999\">noise</tspan></text>\n"
        return out + "</svg>\n"
    }

    static func frame(top: Double, height: Double, label: String) -> String {
        "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(width - left - right))\" height=\"\(f(height))\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n"
            + "<text x=\"14\" y=\"\(f(top + height / 2))\" transform=\"rotate(-90 14 \(f(top + height / 2)))\" text-anchor=\"middle\">\(label)</text>\n"
    }

    static func polyline(_ points: [(Double, Double)], color: String, id: String, dash: String? = nil) -> String {
        "<polyline id=\"\(id)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") points=\""
            + points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ") + "\"/>\n"
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
