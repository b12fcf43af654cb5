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
        let socket = try UDPPeer(port: port)
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

/// A UDP OSC peer on 127.0.0.1 (the tool side of osc-load).
final class UDPPeer {
    private let fd: Int32
    private var target = sockaddr_in()

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw ValidationError("cannot open a UDP socket") }
        target.sin_family = sa_family_t(AF_INET)
        target.sin_addr.s_addr = inet_addr("127.0.0.1")
        target.sin_port = UInt16(port).bigEndian
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    func send(_ message: OSCMessage) {
        let bytes = OSCCodec.encode(message)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Whatever has arrived.
    func drain() -> [OSCMessage] {
        var out: [OSCMessage] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return out }
            if let messages = try? OSCCodec.decode(Array(buffer[0..<n])) { out += messages.map(\.message) }
        }
    }

    /// Send and wait up to 2 s for a reply on `reply`.
    func request(_ message: OSCMessage, reply: String) -> OSCMessage? {
        send(message)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if let found = drain().last(where: { $0.address == reply }) { return found }
            usleep(5000)
        }
        return nil
    }
}
