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

    /// Sends `message` and prints what comes back. A set of a value is followed by a query of
    /// the same address, so the user sees what is now in force; a command that has no reply
    /// (the client was alive a moment ago, and refusals come back as /error) is followed by the
    /// state it changes.
    func send(_ message: OSCMessage) throws {
        let isValue = Self.isValue(message.address)
        client.send(message)
        var replies = collect(until: message.arguments.isEmpty || !isValue ? message.address : nil,
                              wait: message.arguments.isEmpty || !isValue ? timeout : 0.15)
        if let error = replies.first(where: { $0.address == "/error" }) {
            throw ExitMessage(CtlArgument.text(error.arguments.last ?? .string("refused")), about: message.address)
        }
        if isValue, !message.arguments.isEmpty {
            client.send(OSCMessage(message.address))
            replies += collect(until: message.address, wait: timeout)
        }
        if isValue, message.arguments.isEmpty, !replies.contains(where: { $0.address == message.address }) {
            throw NoAnswer(description: "\(message.address): no answer within \(String(format: "%g", timeout)) s")
        }
        if replies.isEmpty { replies = try stateAfterCommand(message.address) }
        for reply in replies { print(CtlArgument.line(reply)) }
    }

    /// What a command without a reply changed: the session transport's state for /session and
    /// /timer commands, else the client's state and panic flag from /status.
    private func stateAfterCommand(_ address: String) throws -> [OSCMessage] {
        if address.hasPrefix("/session/") || address.hasPrefix("/timer/") {
            client.send(OSCMessage("/session/status"))
            return collect(until: "/session/state", wait: timeout).filter { $0.address == "/session/state" || $0.address == "/timer/remaining" }
        }
        client.send(OSCMessage("/status"))
        guard let status = collect(until: "/status", wait: timeout).first(where: { $0.address == "/status" }),
              status.arguments.count > 8 else {
            throw NoAnswer(description: "\(address) was sent, but \(target) did not answer /status after it")
        }
        return [OSCMessage("state", [status.arguments[0]]), OSCMessage("panic", [status.arguments[8]])]
    }

    /// Whether `address` names a value (a query answers it, a set is checked by a query after):
    /// the standard families' addresses, their /norm, and hosted plugins' controls, which exist
    /// only in the running client.
    static func isValue(_ address: String) -> Bool {
        let plain = address.hasSuffix("/norm") ? String(address.dropLast(5)) : address
        if (try? knownValues())?.lookup(plain) != nil { return true }
        let parts = plain.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[1] == "fx" && Int(parts[3]) != nil
    }

    /// `/status`, one labelled field a line.
    func status() throws {
        client.send(OSCMessage("/status"))
        guard let reply = collect(until: "/status", wait: timeout).first(where: { $0.address == "/status" }) else {
            throw NoAnswer(description: "no /status reply from \(target)")
        }
        let labels = ["state", "mode", "carrier (Hz)", "beat (Hz)", "volume", "xruns", "DSP load (%)", "strobe armed", "panic", "elapsed (s)",
                      "JACK server", "period", "server returns", "slowest period (%)", "connections kept"]
        for (index, value) in reply.arguments.enumerated() {
            let label = index < labels.count ? labels[index] : "field \(index + 1)"
            print("\(label.padding(toLength: 18, withPad: " ", startingAt: 0)) \(CtlArgument.text(value))")
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
