import EntrainAddressSpace
import EntrainControl
import EntrainEngine
import EntrainJACK
import Foundation

/// The one-line live status: elapsed time, mode, carrier/beat, output peak, xruns, DSP load.
/// On a terminal it rewrites itself in place; elsewhere (logs, CI) it prints a line every 5 s.
struct StatusLine {
    let isTerminal = isatty(STDERR_FILENO) != 0
    private var lastPrint = Date.distantPast

    mutating func update(host: EngineHost, client: JackClient, meter: PeakMeter) {
        guard !finished else { return }
        let interval: TimeInterval = isTerminal ? 0.25 : 5
        guard Date().timeIntervalSince(lastPrint) >= interval else { return }
        lastPrint = Date()
        let line = Self.describe(host: host, peakDecibels: meter.decibels, xruns: client.xruns, load: client.cpuLoad)
            + (client.serverGone ? "  JACK SERVER GONE (looking for it)" : "")
        if isTerminal {
            StandardError.write("\r\u{1B}[K\(line)")
        } else {
            StandardError.write("\(line)\n")
        }
    }

    private var finished = false

    /// Leave the terminal on a fresh line (once).
    mutating func finish() {
        if isTerminal && !finished { StandardError.write("\n") }
        finished = true
    }

    static func describe(host: EngineHost, peakDecibels: (left: Float, right: Float), xruns: Int, load: Float) -> String {
        let seconds = Int(Double(host.frame) / host.sampleRate)
        let elapsed = String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        let table = host.table
        func text(_ address: String) -> String {
            guard let entry = try? table.entry(for: address) else { return "?" }
            return entry.descriptor.describe(number: host.valuesInForce[entry.index])
        }
        let peak = max(peakDecibels.left, peakDecibels.right)
        let peakText = peak > -120 ? String(format: "%6.1f dBFS", peak) : "  -inf dBFS"
        let panic = host.isPanicked ? "  PANIC" : ""
        return "\(elapsed)  \(text("/entrain/mode")) \(text("/entrain/carrier")) / \(text("/entrain/beat"))"
            + "  peak \(peakText)  xruns \(xruns)  DSP \(String(format: "%4.1f", load))%\(panic)"
    }
}
