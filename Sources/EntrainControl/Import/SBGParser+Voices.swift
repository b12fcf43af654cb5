import Foundation

/// The tokens for the mix input and its effects (SBaGen's `mix/`, SBaGenX's `mixam`, `mixpulse`,
/// `mixspin`, `mixbeat`), spinning noise, bells and `waveNN` voices, with the `waveNN:` tables.
extension SBGParser.State {
    /// One of these voices, or nil when `body` is none of them.
    func mixOrSBaGenVoice(_ body: Substring, token: String, line: Int) throws -> SBGFile.Voice? {
        func number(_ text: Substring, _ what: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let value = Double(text) else { throw error(line, "'\(token)': the \(what) '\(text)' is not a number") }
            try check(value, range, what, token, line)
            return value
        }
        /// `X±Y/A` (a signed second number), as spin and wave voices write it.
        func signedPair(_ spec: Substring) throws -> (Double, Double, Double) {
            guard let slash = spec.lastIndex(of: "/"),
                  let sign = spec.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }), sign < slash else {
                throw error(line, "'\(token)': expected a number, a signed number and /amplitude, like 300+0.2/40")
            }
            return (try number(spec[..<sign], "first number", 0...100_000),
                    try number(spec[sign..<slash], "rate", SBGParser.beats),
                    try number(spec[spec.index(after: slash)...], "amplitude", SBGParser.amplitudes))
        }
        if body.hasPrefix("mix/") { return .mix(amplitude: try number(body.dropFirst(4), "amplitude", SBGParser.amplitudes)) }
        if body.hasPrefix("mixam:") { return try mixAM(body.dropFirst(6), token: token, line: line) }
        for (prefix, make) in [("mixpulse:", { SBGFile.Voice.mixPulse(rate: $0, intensity: $1) }),
                               ("mixbeat:", { SBGFile.Voice.mixBeat(beat: $0, intensity: $1) })] where body.hasPrefix(prefix) {
            let spec = body.dropFirst(prefix.count)
            guard let slash = spec.lastIndex(of: "/") else { throw error(line, "'\(token)': expected \(prefix)rate/intensity") }
            return make(try number(spec[..<slash], "rate", SBGParser.beats),
                        try number(spec[spec.index(after: slash)...], "intensity", SBGParser.amplitudes))
        }
        if body.hasPrefix("mixspin:") {
            let (width, rate, intensity) = try signedPair(body.dropFirst(8))
            return .mixSpin(width: width, rate: rate, intensity: intensity)
        }
        for (prefix, color) in [("spin:", "pink"), ("bspin:", "brown"), ("wspin:", "white")] where body.hasPrefix(prefix) {
            let (width, rate, amplitude) = try signedPair(body.dropFirst(prefix.count))
            return .spin(color: color, width: width, rate: rate, amplitude: amplitude)
        }
        if body.hasPrefix("bell"), let slash = body.lastIndex(of: "/") {
            let frequency = try number(body[body.index(body.startIndex, offsetBy: 4)..<slash], "bell frequency", SBGParser.carriers)
            guard frequency > 0 else { throw error(line, "'\(token)': the bell frequency must be above 0 Hz") }
            return .bell(frequency: frequency, amplitude: try number(body[body.index(after: slash)...], "amplitude", SBGParser.amplitudes))
        }
        if body.hasPrefix("wave"), body.count > 7, let wave = Int(body.dropFirst(4).prefix(2)), body.dropFirst(6).first == ":" {
            guard result.waves[wave] != nil else { throw error(line, "'\(token)': wave\(String(format: "%02d", wave)) is not defined above") }
            let (carrier, beat, amplitude) = try signedPair(body.dropFirst(7))
            guard carrier > 0, carrier <= SBGParser.carriers.upperBound else { throw error(line, "'\(token)': the carrier must be above 0 Hz and at most 20000") }
            return .wave(number: wave, carrier: carrier, beat: beat, amplitude: amplitude)
        }
        return nil
    }

    /// `mixam:R` or `mixam:beat`, then `:m=cos|pulse`, `:f=floor` and the pulse shape's `s d a r e`
    /// (read and checked; entrain's pulse shape is its own soft-edged half period).
    func mixAM(_ spec: Substring, token: String, line: Int) throws -> SBGFile.Voice {
        var fields = spec.split(separator: ":", omittingEmptySubsequences: false)[...]
        guard let head = fields.popFirst(), !head.isEmpty else { throw error(line, "'\(token)': expected mixam:rate or mixam:beat") }
        var rate: Double?
        if head != "beat" {
            guard let r = Double(head) else { throw error(line, "'\(token)': '\(head)' is not a rate (a number or 'beat')") }
            try check(r, 0.1...100, "rate", token, line)
            rate = r
        }
        var floor = 0.45, pulse = false  // SBaGenX's defaults: raised cosine down to 0.45
        for field in fields {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw error(line, "'\(token)': '\(field)' is not key=value") }
            switch pair[0] {
            case "m":
                guard ["cos", "pulse"].contains(pair[1]) else { throw error(line, "'\(token)': m= is cos or pulse") }
                pulse = pair[1] == "pulse"
            case "f":
                guard let f = Double(pair[1]) else { throw error(line, "'\(token)': f= needs a number") }
                try check(f, 0...1, "floor", token, line)
                floor = f
            case "s", "d", "a", "r", "e":
                guard let v = Double(pair[1]), v.isFinite else { throw error(line, "'\(token)': \(pair[0])= needs a number") }
                pulse = true  // SBaGenX: shape fields without m= imply pulse mode
            default:
                throw error(line, "'\(token)': unknown mixam field '\(pair[0])' (m, s, d, a, r, e, f)")
            }
        }
        return .mixAM(rate: rate, floor: floor, pulse: pulse)
    }

    /// `waveNN: v1 v2 …`: at least two finite numbers, not all equal.
    mutating func waveDefinition(_ number: Int, _ rest: String, line: Int) throws {
        let words = rest.split(whereSeparator: \.isWhitespace)
        let values = words.compactMap { Double($0) }.filter(\.isFinite)
        guard values.count == words.count, values.count >= 2 else {
            throw error(line, "wave\(String(format: "%02d", number)): needs at least two numbers (one cycle of the wave)")
        }
        guard values.count <= 4096 else { throw error(line, "wave\(String(format: "%02d", number)): more than 4096 samples") }
        guard values.max()! > values.min()! else { throw error(line, "wave\(String(format: "%02d", number)): every sample is the same: no shape") }
        guard result.waves[number] == nil else { throw error(line, "wave\(String(format: "%02d", number)) is defined twice") }
        result.waves[number] = values
    }
}
