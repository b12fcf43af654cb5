/// Heart data in OSC: our own address and the real heart-rate bridges' (see docs/hrv.md), each
/// in its own unit, turned into RR intervals in ms or a heart rate alone.
enum HeartInput: Equatable {
    /// Beats, ms, oldest first.
    case intervals([Double])
    /// Beats per minute from a sender that has no RR: enough for a display, never for HRV.
    case heartRate(Double)
    /// A newest-RR-only bridge's value (VRChat avatar parameter): deduplicated by the monitor.
    case newestInterval(Double)

    struct Refusal: Error, Equatable { let reason: String }

    /// One RR a second is VRChat's parameter; BPM-only senders' addresses.
    static let newestIntervalAddress = "/avatar/parameters/RRInterval"
    static let heartRateAddresses: Set<String> = [
        "/avatar/parameters/HR", "/avatar/parameters/VRCOSC/Heartrate/Value", "/avatar/parameters/HeartRateInt",
        "/avatar/parameters/Heartrate3", "/heartrate",
    ]

    /// nil when `message` is no heart address; a refusal when it is one with arguments that make no sense.
    static func read(_ message: OSCMessage) -> Result<HeartInput, Refusal>? {
        let address = message.address, parts = address.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let numbers = message.arguments.map(\.number)
        func all(_ unit: Double, _ what: String) -> Result<HeartInput, Refusal> {
            let values = numbers.compactMap { $0 }
            guard !values.isEmpty, values.count == numbers.count, values.allSatisfy(\.isFinite) else {
                return .failure(Refusal(reason: "expects one or more numbers: \(what)"))
            }
            return .success(.intervals(values.map { $0 * unit }))
        }
        func one(_ what: String) -> Double? {
            guard numbers.count == 1, let n = numbers[0], n.isFinite else { return nil }
            return n
        }
        if address == "/hrv/rr" { return all(1, "RR intervals in ms (int or float)") }
        if address == newestIntervalAddress {
            return one("").map { .success(.newestInterval($0)) } ?? .failure(Refusal(reason: "expects one int: the newest RR interval in ms"))
        }
        if heartRateAddresses.contains(address) {
            return one("").map { .success(.heartRate($0)) } ?? .failure(Refusal(reason: "expects one number: the heart rate in BPM"))
        }
        // polar2osc: /polar/<k>/ibi in 1/1024 s, one per beat.
        if parts.count == 3, parts.first == "polar", parts.last == "ibi" { return all(1000.0 / 1024, "intervals in 1/1024 s") }
        // EmotiBit's inter-beat interval stream patched to /EmotiBit/<k>/BI, in ms.
        if parts.count == 3, parts.first == "EmotiBit", parts.last == "BI" { return all(1, "inter-beat intervals in ms") }
        // /<id>/hr and /polar/<k>/hr: one int is BPM (polar2osc); Sensor2OSC's list is
        // [hr, rr ms…, rr 1/1024 s…, contact, contact supported].
        if parts.last == "hr", (parts.count == 2 && parts.first != "hrv") || (parts.count == 3 && parts.first == "polar") {
            if let bpm = one("") { return .success(.heartRate(bpm)) }
            guard numbers.count >= 3, numbers.count % 2 == 1, numbers.allSatisfy({ $0?.isFinite ?? false }) else {
                return .failure(Refusal(reason: "expects one int (BPM) or Sensor2OSC's list: hr, RR ms…, RR 1/1024 s…, contact, contact supported"))
            }
            let count = (numbers.count - 3) / 2
            guard count > 0 else { return .success(.heartRate(numbers[0]!)) }
            return .success(.intervals(numbers[1...count].map { $0! }))
        }
        return nil
    }
}
