import ArgumentParser
import EntrainAddressSpace
import EntrainControl
import Foundation

/// One conversation with a running client over UDP: replies come back to our own port.
struct CtlSession {
    let client: OSCClient
    let target: String
    let timeout: TimeInterval

    init(host: String, port: Int, timeout: TimeInterval) throws {
        client = try OSCClient(host: host, port: port)
        target = "\(host):\(port)"
        self.timeout = timeout
    }

    struct NoAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// A `/ping` first, so "nothing came back" means "no client", not "the command has no reply".
    func checkAlive() throws {
        let token = OSCValue.int32(Int32(truncatingIfNeeded: getpid()))
        guard client.request(OSCMessage("/ping", [token]), reply: "/pong", timeout: timeout) != nil else {
            throw NoAnswer(description: "no entrain answered at \(target) within \(String(format: "%g", timeout)) s. "
                           + "Is `entrain run` running, with OSC on that port? (--port and --host choose another; "
                           + "a client started with --no-osc cannot be reached)")
        }
    }

    /// Sends `message` and prints what comes back. A set is followed by a query of the same
    /// address when it names a value, so the user sees what is now in force.
    func send(_ message: OSCMessage) throws {
        let isQuery = message.arguments.isEmpty
        let valueAddress = (try? Self.knownValues())?.lookup(message.address) != nil
        client.send(message)
        var replies = collect(until: isQuery ? message.address : nil, wait: isQuery ? timeout : 0.15)
        if let error = replies.first(where: { $0.address == "/error" }) {
            throw ExitMessage(CtlArgument.text(error.arguments.last ?? .string("refused")), about: message.address)
        }
        if !isQuery, valueAddress {
            client.send(OSCMessage(message.address))
            replies += collect(until: message.address, wait: timeout)
        }
        if isQuery, !replies.contains(where: { $0.address == message.address }) {
            throw NoAnswer(description: "\(message.address): no answer within \(String(format: "%g", timeout)) s (not an address that answers a query?)")
        }
        for reply in replies { print(CtlArgument.line(reply)) }
    }

    /// `/status`, one labelled field a line.
    func status() throws {
        client.send(OSCMessage("/status"))
        guard let reply = collect(until: "/status", wait: timeout).first(where: { $0.address == "/status" }) else {
            throw NoAnswer(description: "no /status reply from \(target)")
        }
        let labels = ["state", "mode", "carrier (Hz)", "beat (Hz)", "volume", "xruns", "DSP load (%)", "strobe armed", "panic", "elapsed (s)",
                      "JACK server", "period", "server returns"]
        for (index, value) in reply.arguments.enumerated() {
            let label = index < labels.count ? labels[index] : "field \(index + 1)"
            print("\(label.padding(toLength: 14, withPad: " ", startingAt: 0)) \(CtlArgument.text(value))")
        }
    }

    /// Subscribes, prints matching feedback until `stop()` or `count` messages, renews the
    /// subscription every 20 s (it lapses after 60), and unsubscribes at the end.
    func watch(_ patterns: [String], count: Int?, stop: () -> Bool) {
        var printed = 0
        var renewed = Date.distantPast
        defer { client.send(OSCMessage("/osc/unsubscribe")) }
        while !stop() {
            if Date().timeIntervalSince(renewed) > 20 {
                client.send(OSCMessage("/osc/subscribe"))
                renewed = Date()
            }
            for message in client.drain(waitMilliseconds: 100) where Self.matches(message.address, patterns) {
                print(CtlArgument.line(message))
                fflush(stdout)
                printed += 1
                if let count, printed >= count { return }
            }
        }
    }

    static func matches(_ address: String, _ patterns: [String]) -> Bool {
        patterns.contains { pattern in
            pattern.hasSuffix("*") ? address.hasPrefix(pattern.dropLast()) : address == pattern
        }
    }

    /// Replies until one at `address` arrives (then a moment more for its companions), or `wait`.
    private func collect(until address: String?, wait: TimeInterval) -> [OSCMessage] {
        var replies: [OSCMessage] = []
        let deadline = Date().addingTimeInterval(wait)
        while Date() < deadline {
            let arrived = client.drain(waitMilliseconds: 10).filter { $0.address != "/pong" }
            replies += arrived
            if let address, arrived.contains(where: { $0.address == address || $0.address == "/error" }) { break }
        }
        return replies
    }

    /// The standard families' addresses, to know which answer a query.
    private static func knownValues() throws -> AddressSpace { AddressSpace(try OSCSchema.standardFamilies()) }
}

/// A refusal from the client, printed as "ADDRESS: reason" with exit status 1.
struct ExitMessage: Error, CustomStringConvertible {
    let description: String
    init(_ reason: String, about address: String) { description = "\(address): \(reason)" }
}
