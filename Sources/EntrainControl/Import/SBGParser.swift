import EntrainAddressSpace
import EntrainCore
import EntrainFiles
import Foundation

/// The first layer of SBaGen `.sbg` import: the file as SBaGen 1.4.5 reads it (with the forks'
/// tokens), not yet turned into a timeline: SBaGen's lexical rules (`#` comments anywhere,
/// `##` ones shown), line classes (options, definitions, blocks, time lines), tone-set tokens,
/// time specs, fades, `->` and blocks.
public struct SBGFile: Sendable {
    public enum Waveform: String, Sendable { case sine, square, triangle, sawtooth }

    public enum Voice: Equatable, Sendable {
        /// Left = carrier + beat/2, right = carrier − beat/2 (the sign of beat picks the higher ear).
        case binaural(carrier: Double, beat: Double, amplitude: Double, waveform: Waveform)
        case isochronic(carrier: Double, pulse: Double, amplitude: Double, waveform: Waveform)
        case monaural(carrier: Double, beat: Double, amplitude: Double)
        case noise(color: String, amplitude: Double)
        /// The mix input (`mix/A`) and SBaGenX's effects on it (intensities in percent).
        case mix(amplitude: Double)
        /// `mixam:R` (rate nil: `mixam:beat`, the first tone's beat); the level dips to `floor` (0–1).
        case mixAM(rate: Double?, floor: Double, pulse: Bool)
        case mixPulse(rate: Double, intensity: Double)
        case mixSpin(width: Double, rate: Double, intensity: Double)
        case mixBeat(beat: Double, intensity: Double)
        /// `spin:`, `bspin:`, `wspin:`: noise panned at `rate` Hz; width in microseconds.
        case spin(color: String, width: Double, rate: Double, amplitude: Double)
        /// `bell+F/A`: a struck bell at F Hz when the period starts.
        case bell(frequency: Double, amplitude: Double)
        /// `waveNN:C±B/A`: a binaural pair under the beat envelope `waveNN:` defines.
        case wave(number: Int, carrier: Double, beat: Double, amplitude: Double)
        /// Tokens entrain cannot play (bell, mix, spin, waveNN, …): kept with the reason.
        case unsupported(token: String, reason: String)
    }

    public struct ToneSet: Sendable {
        public let name: String
        /// One entry per slot; nil is an empty slot (`-`).
        public let slots: [Voice?]
        public let line: Int
    }

    public struct TimeLine: Sendable, Equatable {
        /// Seconds after local midnight, modulo 24 h.
        public let time: Double
        public let fadeIn: Character
        public let fadeOut: Character
        public let toneSet: String
        /// A trailing `->`: the whole interval to the next line is a transition.
        public let slide: Bool
        public let line: Int
    }

    public struct Options: Sendable, Equatable {
        public var startAtFirst = false  // -S
        public var endAtLast = false     // -E
        public var startTime: Double?    // -T
        public var length: Double?       // -L
        public var fadeSeconds = 60.0    // -F (given in ms)
        public var sampleRate: Int?      // -r
    }

    public var options = Options()
    public var toneSets: [String: ToneSet] = [:]
    public var timeline: [TimeLine] = []
    /// `##` comments, which SBaGen shows when it loads a file.
    public var notes: [String] = []
    /// `waveNN:` definitions: one cycle of samples, as written.
    public var waves: [Int: [Double]] = [:]
    /// The file counts from NOW; where NOW falls (seconds after midnight) is where SBaGen starts it.
    public var now: Double?
}

public enum SBGParser {
    /// Blocks may name blocks, this many deep (SBaGen files use one or two levels).
    static let maximumBlockDepth = 16
    /// Time lines after blocks are expanded: more than a day's worth at one a second.
    static let maximumTimeLines = 200_000
    /// Lines in a file: the time lines above plus room for definitions and comments. Counted in
    /// bytes before anything is parsed, so a file of millions of lines is refused at once.
    static let maximumLines = 250_000
    /// What a tone may say: carriers above 0 up to 20 kHz, beats and pulses up to 1 kHz either
    /// way, amplitudes 0–100 (SBaGen's percent). Outside these a file is wrong, not just loud.
    static let carriers = 0.0...20_000.0, beats = -1000.0...1000.0, amplitudes = 0.0...100.0

    /// Parse `text`; `now` is the wall-clock time (seconds after midnight) that NOW stands for.
    public static func parse(_ text: String, file: String, now: Double = 0) throws -> (SBGFile, [SessionProblem]) {
        var state = State(file: file, now: now)
        var newlines = 0
        for byte in text.utf8 where byte == 0x0A {
            newlines += 1
            if newlines > maximumLines { throw state.error(maximumLines + 1, "more than \(InputLimits.grouped(maximumLines)) lines (at most \(InputLimits.grouped(maximumTimeLines)) of them time lines)") }
        }
        var contentStarted = false
        var blockName: String?
        var blockLines: [(String, Int)] = []
        // Split on any newline: in Swift "\r\n" is one Character, so CRLF files (saved on Windows) need this.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") {
                if line[hash...].hasPrefix("##") { state.result.notes.append(String(line[hash...].dropFirst(2)).trimmingCharacters(in: .whitespaces)) }
                line = line[..<hash]
            }
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.isEmpty { continue }
            if let name = blockName {  // inside a block definition
                if content == "}" {
                    guard !blockLines.isEmpty else { throw state.error(number, "block '\(name)' is empty") }
                    state.blocks[name] = blockLines
                    blockName = nil
                } else {
                    guard content.hasPrefix("+") else { throw state.error(number, "lines inside block '\(name)' must start with '+' (a relative time)") }
                    blockLines.append((content, number))
                }
                continue
            }
            if content.hasPrefix("-") {
                guard !contentStarted else { throw state.error(number, "option lines must come before the first tone-set or time line") }
                try state.option(content, line: number)
                continue
            }
            contentStarted = true
            if let (name, rest) = definition(content) {
                if rest == "{" {
                    blockName = name
                    blockLines = []
                } else if name.count == 6, name.hasPrefix("wave"), let wave = Int(name.dropFirst(4)) {
                    try state.waveDefinition(wave, rest, line: number)
                } else if let kind = ["custom", "spin", "noise"].first(where: { name.hasPrefix($0) && name.count == $0.count + 2 && Int(name.dropFirst($0.count)) != nil }) {
                    // waveNN (1.4.5) and SBaGenX's customNN / spinNN / noiseNN shapes.
                    state.warn(number, "\(kind) definition '\(name)' is not used by entrain (the voices that use it are left out or play as sine)")
                } else {
                    try state.toneSet(name, rest, line: number)
                }
                continue
            }
            try state.timeLine(content, line: number, prefix: "")
        }
        if let name = blockName { throw state.error(text.split(whereSeparator: \.isNewline).count, "the file ends inside block '\(name)'") }
        return (state.result, state.warnings)
    }

    /// `NAME:` followed by whitespace: a definition line.
    static func definition(_ line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":"), line.index(after: colon) < line.endIndex,
              line[line.index(after: colon)].isWhitespace else { return nil }
        let name = String(line[..<colon])
        guard let first = name.first, first.isLetter,
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
        return (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    struct State {
        let file: String
        let now: Double
        var result = SBGFile()
        var warnings: [SessionProblem] = []
        var blocks: [String: [(String, Int)]] = [:]
        var lastAbsolute: Double?

        func error(_ line: Int, _ message: String) -> SessionLoadError {
            SessionLoadError(problems: [SessionProblem(file: file, line: line, column: 1, message: message, isWarning: false)])
        }

        mutating func warn(_ line: Int, _ message: String) {
            warnings.append(SessionProblem(file: file, line: line, column: 1, message: message, isWarning: true))
        }

        /// Only options that change timing are honoured; anything that reads or writes files,
        /// or runs a built-in program, is refused with a warning.
        mutating func option(_ line: String, line number: Int) throws {
            var words = line.split(whereSeparator: \.isWhitespace).map(String.init)[...]
            while let word = words.popFirst() {
                switch word {
                case "-S": result.options.startAtFirst = true
                case "-E": result.options.endAtLast = true
                case "-SE", "-ES": result.options.startAtFirst = true; result.options.endAtLast = true
                case "-T", "-L":
                    guard let value = words.popFirst(), let seconds = SBGParser.clock(value) else { throw error(number, "\(word) needs hh:mm[:ss]") }
                    if word == "-T" { result.options.startTime = seconds } else { result.options.length = seconds }
                case "-F":
                    guard let value = words.popFirst(), let ms = Double(value), ms >= 0, ms <= 86_400_000 else {
                        throw error(number, "-F needs milliseconds (0 to a day)")
                    }
                    result.options.fadeSeconds = ms / 1000
                case "-r":
                    guard let value = words.popFirst(), let rate = Int(value), (8000...384_000).contains(rate) else { throw error(number, "-r needs a sample rate") }
                    result.options.sampleRate = rate
                case "-p", "-i":
                    throw error(number, "\(word) (built-in programs and immediate tones) is not supported by the importer")
                case "-o", "-O", "-W", "-Wo", "-m", "-M", "-d", "-c", "-b", "-R", "-q", "-Q", "-D", "-B":
                    if ["-o", "-m", "-d", "-c", "-b", "-R", "-q", "-B", "-Wo"].contains(word) { _ = words.popFirst() }
                    warn(number, "option \(word) ignored: options that read or write files or change the output are refused")
                default:
                    warn(number, "option \(word) ignored")
                }
            }
        }

        mutating func toneSet(_ name: String, _ rest: String, line: Int) throws {
            var slots: [SBGFile.Voice?] = []
            for token in rest.split(whereSeparator: \.isWhitespace).map(String.init) {
                guard slots.count < 16 else { warn(line, "tone-set '\(name)': more than 16 voices; the rest ignored"); break }
                slots.append(try voice(token, line: line))
            }
            result.toneSets[name] = SBGFile.ToneSet(name: name, slots: slots, line: line)
        }

        func voice(_ token: String, line: Int) throws -> SBGFile.Voice? {
            if token == "-" { return nil }
            var body = Substring(token)
            var waveform = SBGFile.Waveform.sine
            for prefix in ["sine", "square", "triangle", "sawtooth"] where body.hasPrefix(prefix + ":") {
                waveform = SBGFile.Waveform(rawValue: prefix)!
                body = body.dropFirst(prefix.count + 1)
            }
            for color in ["pink", "white", "brown"] where body.hasPrefix(color + "/") {
                guard let a = Double(body.dropFirst(color.count + 1)) else { break }
                try check(a, SBGParser.amplitudes, "amplitude", token, line)
                return .noise(color: color, amplitude: a)
            }
            if let voice = try mixOrSBaGenVoice(body, token: token, line: line) { return voice }
            for unsupported in ["noisepulse:", "noisebeat:", "orbitbeat:", "noise", "custom", "spin", "wave"] where body.hasPrefix(unsupported) {
                return .unsupported(token: token, reason: "'\(unsupported.trimmingCharacters(in: CharacterSet(charactersIn: ":/")))' voices are not played by entrain")
            }
            guard let slash = body.lastIndex(of: "/"), let amplitude = Double(body[body.index(after: slash)...]) else {
                throw error(line, "'\(token)' is not a tone: expected carrier±beat/amp, carrier@pulse/amp, carrierMbeat/amp, carrier/amp, pink/amp, …")
            }
            let spec = body[..<slash]
            var tone: SBGFile.Voice?
            var carrier = 0.0, beat = 0.0
            if let at = spec.firstIndex(of: "@"), let c = Double(spec[..<at]), let p = Double(spec[spec.index(after: at)...]) {
                (carrier, beat) = (c, p)
                tone = .isochronic(carrier: c, pulse: p, amplitude: amplitude, waveform: waveform)
            } else if let m = spec.firstIndex(where: { $0 == "M" || $0 == "m" }), let c = Double(spec[..<m]), let b = Double(spec[spec.index(after: m)...]) {
                (carrier, beat) = (c, b)
                tone = .monaural(carrier: c, beat: b, amplitude: amplitude)
            } else if let sign = spec.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }),
                      spec[spec.index(before: sign)] != "e" && spec[spec.index(before: sign)] != "E",
                      let c = Double(spec[..<sign]), let b = Double(spec[sign...]) {
                // carrier then a signed beat: the sign after the first character splits them.
                (carrier, beat) = (c, b)
                tone = .binaural(carrier: c, beat: b, amplitude: amplitude, waveform: waveform)
            } else if let c = Double(spec) {
                carrier = c
                tone = .binaural(carrier: c, beat: 0, amplitude: amplitude, waveform: waveform)
            }
            guard let tone else {
                throw error(line, "'\(token)' is not a tone: expected carrier±beat/amp, carrier@pulse/amp, carrierMbeat/amp, carrier/amp, pink/amp, …")
            }
            try check(carrier, SBGParser.carriers, "carrier", token, line)
            guard carrier > 0 else { throw error(line, "'\(token)': the carrier must be above 0 Hz") }
            try check(beat, SBGParser.beats, "beat", token, line)
            try check(amplitude, SBGParser.amplitudes, "amplitude", token, line)
            return tone
        }

        /// nan, inf and absurd values are errors with their line, never clamped silently.
        func check(_ value: Double, _ range: ClosedRange<Double>, _ what: String, _ token: String, _ line: Int) throws {
            guard !range.contains(value) else { return }
            let limits = "\(ControlDescriptor.format(range.lowerBound)) to \(ControlDescriptor.format(range.upperBound))"
            throw error(line, "'\(token)': the \(what) \(value.isFinite ? ControlDescriptor.format(value) : "\(value)") is not a number from \(limits)")
        }

        /// `TIMESPEC [FADE] NAME [->]`; a block is expanded by re-reading its lines with this
        /// line's time spec written in front of them, as SBaGen does (checked first: see
        /// `expandedCount`).
        mutating func timeLine(_ content: String, line: Int, prefix: String) throws {
            guard let words = TimeLineWords(content) else { return }
            let fullSpec = prefix + words.spec
            guard let name = words.name else { throw error(line, "a time line needs a tone-set or block name after the time") }
            if blocks[name] == nil, result.toneSets[name] == nil, (try? voice(name, line: line)) != nil {
                throw error(line, "tones written on time lines ('\(name)', SBaGenX's library syntax) are not supported: define a tone-set")
            }
            var rest = words.rest
            let slide = rest.first == "->"
            if slide { rest.removeFirst() }
            if let extra = rest.first { throw error(line, "unexpected '\(extra)' after '\(name)'") }
            if let block = blocks[name] {
                if prefix.isEmpty {
                    var counts: [String: Int] = [:]
                    let count = try expandedCount(name, within: [], written: line, counts: &counts)
                    guard result.timeline.count + count <= SBGParser.maximumTimeLines else {
                        throw error(line, "more than \(InputLimits.grouped(SBGParser.maximumTimeLines)) time lines (after expanding blocks)")
                    }
                }
                for (inner, _) in block { try timeLine(inner, line: line, prefix: fullSpec) }
                return
            }
            guard result.toneSets[name] != nil else { throw error(line, "'\(name)' is not a tone-set or block defined above") }
            let time = try self.time(fullSpec, line: line)
            guard result.timeline.count < SBGParser.maximumTimeLines else {
                throw error(line, "more than \(InputLimits.grouped(SBGParser.maximumTimeLines)) time lines")
            }
            result.timeline.append(SBGFile.TimeLine(time: time, fadeIn: words.fadeIn, fadeOut: words.fadeOut, toneSet: name, slide: slide, line: line))
        }

        /// How many time lines block `name` expands to, found before expanding it: a block that
        /// names itself (directly or through others) would never end, and blocks of blocks can
        /// multiply into billions of lines. Either is an error on the line `written` that names
        /// the block; the count stops just past the cap. `within`: the blocks on the way here.
        func expandedCount(_ name: String, within: [String], written: Int, counts: inout [String: Int]) throws -> Int {
            if let known = counts[name] { return known }
            let chain = (within + [name]).joined(separator: " → ")
            if within.contains(name) { throw error(written, "block '\(name)' names itself (\(chain)): a block cannot contain itself") }
            guard within.count < SBGParser.maximumBlockDepth else {
                throw error(written, "blocks nested more than \(SBGParser.maximumBlockDepth) deep (\(chain))")
            }
            var total = 0
            for (inner, innerLine) in blocks[name] ?? [] {
                var n = 1
                if let named = TimeLineWords(inner)?.name, blocks[named] != nil {
                    n = try expandedCount(named, within: within + [name], written: innerLine, counts: &counts)
                }
                total = min(total + n, SBGParser.maximumTimeLines + 1)
            }
            counts[name] = total
            return total
        }

        /// `[NOW | hh:mm[:ss]] {+hh:mm[:ss]}`; a spec starting with `+` counts from the last
        /// absolute time mentioned anywhere so far. All arithmetic modulo 24 h.
        mutating func time(_ spec: String, line: Int) throws -> Double {
            var parts = spec.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            var total: Double
            let head = parts.removeFirst()
            if head.isEmpty {
                guard let last = lastAbsolute else { throw error(line, "'\(spec)': a relative time needs an absolute time (hh:mm or NOW) before it") }
                total = last
            } else if head == "NOW" {
                total = now
                lastAbsolute = now
                result.now = now
            } else if let clock = SBGParser.clock(head), clock < 86_400 {
                total = clock
                lastAbsolute = clock
            } else {
                throw error(line, "'\(spec)' is not a time: expected hh:mm[:ss], NOW or +hh:mm[:ss]")
            }
            for part in parts {
                guard let clock = SBGParser.clock(part) else { throw error(line, "'\(spec)' is not a time: expected hh:mm[:ss] after '+'") }
                total += clock
            }
            return total.truncatingRemainder(dividingBy: 86_400)
        }
    }

    /// The words of a time line: `TIMESPEC [FADE] NAME …`.
    struct TimeLineWords {
        let spec: String
        var fadeIn: Character = "-", fadeOut: Character = "-"
        var name: String?
        /// What follows the name (`->`, or a mistake).
        var rest: ArraySlice<String>

        init?(_ content: String) {
            var words = content.split(whereSeparator: \.isWhitespace).map(String.init)[...]
            guard let spec = words.popFirst() else { return nil }
            self.spec = spec
            if let fade = words.first, fade.count == 2, let a = fade.first, let b = fade.last, "<-=".contains(a), ">-=".contains(b),
               words.count >= 2 {
                (fadeIn, fadeOut) = (a, b)
                words.removeFirst()
            }
            name = words.popFirst()
            rest = words
        }
    }

    /// hh:mm[:ss] (hh 0–23, mm and ss 0–59, one or two digits each) in seconds.
    static func clock(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let v = fields.map { Double($0)! }
        guard v[0] < 24, v[1] < 60, v.count < 3 || v[2] < 60 else { return nil }
        return v[0] * 3600 + v[1] * 60 + (v.count == 3 ? v[2] : 0)
    }
}
