import ArgumentParser
import EntrainControl
import Foundation

/// Load test for a running client: send parameter changes at a steady rate and check that every
/// one was accepted and the last one applied.
struct OSCLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osc-load",
        abstract: "Send OSC parameter changes to a running entrain at a steady rate, then check the result.")

    @Option(help: "Port of the running client's OSC server (on 127.0.0.1).")
    var port = 8000
    @Option(help: "Messages per second.")
    var rate = 10_000
    @Option(help: "How long to send, in seconds.")
    var seconds = 60.0

    func run() throws {
        let socket = try OSCClient(port: port)
        guard let before = socket.request(OSCMessage("/status"), reply: "/status") else {
            throw ValidationError("no answer from OSC port \(port): is `entrain run` running?")
        }
        let total = Int(Double(rate) * seconds)
        var errors = 0, sent = 0
        var last = 0.0
        let start = Date()
        while sent < total {
            // Pace in 1 ms slices: send what is due by now.
            let due = min(total, Int(Date().timeIntervalSince(start) * Double(rate)))
            while sent < due {
                last = 200 + Double(sent % 800)  // carrier values 200…999 Hz
                socket.send(OSCMessage("/entrain/carrier", [.float(Float(last))]))
                sent += 1
            }
            errors += socket.drain().filter { $0.address == "/error" }.count
            usleep(1000)
        }
        let elapsed = Date().timeIntervalSince(start)
        usleep(200_000)
        errors += socket.drain().filter { $0.address == "/error" }.count
        let final = socket.request(OSCMessage("/entrain/carrier"), reply: "/entrain/carrier")?.arguments.first?.number
        let after = socket.request(OSCMessage("/status"), reply: "/status")
        let xruns = (after?.arguments[5].number ?? -1) - (before.arguments[5].number ?? 0)
        print(String(format: "sent %d messages in %.1f s (%.0f/s); /error replies: %d; last value applied: %@; new xruns: %.0f",
                     sent, elapsed, Double(sent) / elapsed, errors, final == last ? "yes" : "NO (\(final ?? .nan))", xruns))
        if errors > 0 || final != last || xruns != 0 { throw ExitCode(1) }
    }
}

