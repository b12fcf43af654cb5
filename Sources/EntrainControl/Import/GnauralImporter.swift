import EntrainEngine
import EntrainDSP
import EntrainFiles
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Imports Gnaural schedules (.gnaural XML) as sessions.
///
/// Gnaural's voices run in parallel, each a chain of entries whose values move linearly to the
/// next entry's over the entry's duration (the last entry back to the first; a zero duration is a
/// jump). All voices' breakpoints are merged into one timeline of linear stages, which reproduces
/// piecewise-linear voices exactly; jumps become 1 ms stages that switch at once.
public enum GnauralImporter {
    struct Entry { var duration, left, right, beat, base: Double }
    struct Voice {
        var type: Int; var description: String; var muted: Bool; var line: Int
        var entries: [Entry] = []
        /// Where each entry ends (seconds from the start), for finding the entry at a time quickly;
        /// set when the voice's element closes.
        var ends: [Double] = []
    }

    public static func load(_ url: URL) throws -> (session: Session, warnings: [SessionProblem]) {
        return try convert(Data(try SessionLoadError.reading { try DocumentFile.bytes(url) }), file: url.path)
    }

    public static func convert(_ data: Data, file: String) throws -> (session: Session, warnings: [SessionProblem]) {
        let bytes = [UInt8](data)
        if let bad = UTF8Check.firstInvalidByte(bytes), !UTF8Check.declaresEncoding(bytes) {
            let at = UTF8Check.position(of: bad, in: bytes)
            throw SessionLoadError(problems: [SessionProblem(file: file, line: at.line, column: at.column,
                                                             message: "not UTF-8 text (byte 0x\(String(bytes[bad], radix: 16))) and no encoding declared", isWarning: false)])
        }
        if let (offset, message) = XMLPreflight.unsupportedConstruct(bytes) {
            let at = UTF8Check.position(of: offset, in: bytes)
            throw SessionLoadError(problems: [SessionProblem(file: file, line: at.line, column: at.column, message: message, isWarning: false)])
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse(), reader.sawSchedule, reader.open.isEmpty else {
            if let unclosed = reader.open.last, reader.sawSchedule {
                throw SessionLoadError(problems: [SessionProblem(file: file, line: parser.lineNumber, column: parser.columnNumber,
                                                                 message: "not well-formed XML: <\(unclosed)> is not closed", isWarning: false)])
            }
            let message = reader.sawSchedule ? (parser.parserError.map { "not well-formed XML: \($0.localizedDescription)" } ?? "not well-formed XML")
                                             : "not a Gnaural file: no <schedule>"
            throw SessionLoadError(problems: [SessionProblem(file: file, line: parser.lineNumber, column: parser.columnNumber, message: message, isWarning: false)])
        }
        var warnings: [SessionProblem] = []
        func warn(_ line: Int, _ message: String) { warnings.append(SessionProblem(file: file, line: line, column: 1, message: message, isWarning: true)) }
        let problems = reader.problems.map { SessionProblem(file: file, line: $0.line, column: 1, message: $0.message, isWarning: false) }
        guard problems.isEmpty else { throw SessionLoadError(problems: problems) }

        // Which of entrain's voices each Gnaural voice becomes.
        var tones: [(voice: Voice, mode: String)] = []
        var noises: [Voice] = []
        for voice in reader.voices where !voice.entries.isEmpty {
            if voice.muted { warn(voice.line, "voice '\(voice.description)' is muted in Gnaural: left out"); continue }
            switch voice.type {
            case 0: tones.append((voice, "binaural"))
            case 1: noises.append(voice)
            case 3: tones.append((voice, "isochronic"))
            case 4:
                warn(voice.line, "voice '\(voice.description)': alternating isochronic pulses play in both ears together")
                tones.append((voice, "isochronic"))
            case 2: warn(voice.line, "voice '\(voice.description)': audio-file voices are not imported (silence instead)")
            default: warn(voice.line, "voice '\(voice.description)': type \(voice.type) (water, rain) is not synthesized: left out")
            }
        }
        if tones.count > EntrainmentParameters.voiceCount {
            warn(tones[EntrainmentParameters.voiceCount].voice.line, "only \(EntrainmentParameters.voiceCount) tone voices are played; \(tones.count - EntrainmentParameters.voiceCount) left out")
            tones = Array(tones.prefix(EntrainmentParameters.voiceCount))
        }
        if noises.count > 1 { warn(noises[1].line, "several noise voices: their levels are added into one pink bed") }
        let playing = tones.map(\.voice) + noises
        guard !playing.isEmpty else {
            throw SessionLoadError(problems: [SessionProblem(file: file, line: 1, column: 1, message: "no voice that entrain can play", isWarning: false)])
        }

        // Gnaural's length is its shortest voice (it restarts all voices when any runs out).
        let lengths = playing.map { $0.entries.reduce(0) { $0 + $1.duration } }
        let length = lengths.min()!
        if lengths.contains(where: { abs($0 - length) > 1e-6 }) {
            warn(1, "voices differ in length; Gnaural plays the shortest, \(String(format: "%.1f", length)) s")
        }

        guard length > 0 else { throw SessionLoadError(problems: [SessionProblem(file: file, line: 1, column: 1, message: "the schedule has no length", isWarning: false)]) }
        // Imports play at most a day: a longer (or absurd, 1e300 s) schedule is refused, not wrapped.
        guard length <= 24 * 3600 else {
            throw SessionLoadError.at(file, line: 1, String(format: "the schedule lasts %.0f s; at most a day (86400 s) is imported", length))
        }

        // Every time at which some voice has a breakpoint, and the values just before and after.
        var times = Set([0.0, length])
        for voice in playing {
            var t = 0.0
            for entry in voice.entries { t += entry.duration; if t < length { times.insert(t) } }
        }
        let ordered = times.sorted()
        func changes(at t: Double, after: Bool) -> ImportedTimeline.Changes {
            var out: ImportedTimeline.Changes = []
            for (v, tone) in tones.enumerated() {
                let e = value(of: tone.voice, at: t, after: after)
                out += ImportedTimeline.tone(voice: v, mode: tone.mode == "isochronic" ? 2 : 0, carrier: e.base, beat: e.beat,
                                             level: (e.left + e.right) / 2)
            }
            if !noises.isEmpty {
                let level = noises.reduce(0.0) { sum, voice in let e = value(of: voice, at: t, after: after); return sum + (e.left + e.right) / 2 }
                out.append(("/entrain/noise/level", min(1, max(0, level))))
            }
            return out
        }
        // Values outside entrain's ranges are brought in with a warning (Gnaural allows them).
        for tone in tones {
            for entry in tone.voice.entries {
                if entry.base < 20 || entry.base > 1500 { warn(tone.voice.line, "voice '\(tone.voice.description)': carrier \(entry.base) Hz is outside 20–1500 Hz; held at the nearest limit"); break }
            }
            if tone.mode == "binaural", tone.voice.entries.contains(where: { abs($0.beat) / 2 >= min(1500, max(20, $0.base)) }) {
                warn(tone.voice.line, "voice '\(tone.voice.description)': beats wider than twice the carrier are narrowed so the lower tone stays above 0 Hz")
            }
            for entry in tone.voice.entries where abs(entry.left - entry.right) > 1e-6 {
                warn(tone.voice.line, "voice '\(tone.voice.description)': different left and right volumes are averaged (no panning yet)"); break
            }
            if tone.voice.entries.contains(where: { $0.beat < 0 }) {
                warn(tone.voice.line, "voice '\(tone.voice.description)': a negative beat (right ear higher) is played with the left ear higher")
            }
        }

        var setup: [(address: String, value: Double)] = [("/entrain/volume", min(1, max(0, (reader.volumeLeft + reader.volumeRight) / 2)))]
        for (v, tone) in tones.enumerated() {
            let p = EntrainmentParameters.prefix(voice: v)
            // Gnaural centres binaural beats on the carrier; isochronic pulses sit on the carrier itself.
            let binaural = tone.mode == "binaural"
            setup += [("\(p)/mode", binaural ? 0 : 2), ("\(p)/convention", binaural ? 1 : 0), ("\(p)/duty", 0.5), ("\(p)/edge", 0.02)]
        }
        if !noises.isEmpty { setup.append(("/entrain/noise", 1)) }
        let stages = ImportedTimeline.stages(breakpoints: ordered, setup: setup, name: { String(format: "%.3f s", $0) },
                                             values: changes)
        // Passes: as many as Gnaural plays, up to a day; an endless loop becomes about an hour.
        let wanted = reader.loops > 0 ? reader.loops : max(1, Int(saturating: 3600 / length))
        let passes = max(1, min(wanted, Int(saturating: 24 * 3600 / length, rounding: .down), 20_000 / max(1, stages.count)))
        if reader.loops <= 0 {
            warn(1, "the schedule loops forever in Gnaural; imported as \(passes) passes (\(String(format: "%.0f", Double(passes) * length / 60)) min)")
        } else if passes < reader.loops {
            warn(1, "\(reader.loops) loops would last too long; \(passes) imported")
        }
        var all = stages
        for _ in 1..<passes { all += stages.dropFirst() }
        return (Session(name: reader.title.isEmpty ? URL(fileURLWithPath: file).lastPathComponent : reader.title,
                        description: reader.summary, stages: all), warnings)
    }

    /// A voice's values at time t: within entry k they move linearly towards entry k+1's (the
    /// last towards the first). `after` picks the value just after a jump at t.
    /// The entry is found by binary search over the entries' ends, so long schedules import in
    /// linear-logarithmic time.
    static func value(of voice: Voice, at t: Double, after: Bool) -> Entry {
        let entries = voice.entries
        let ends = voice.ends.count == entries.count ? voice.ends : entries.reduce(into: []) { $0.append(($0.last ?? 0) + $1.duration) }
        // The entry at t: the first ending after t; at its end exactly (before a jump there), the one ending at t.
        var k = firstIndex(in: ends) { $0 >= t }
        if k < ends.count, ends[k] == t, after || entries[k].duration == 0 { k = firstIndex(in: ends) { $0 > t } }
        guard k < entries.count else { return entries[0] }
        let entry = entries[k], start = k > 0 ? ends[k - 1] : 0
        let next = entries[(k + 1) % entries.count]
        let x = entry.duration > 0 ? (t - start) / entry.duration : 1
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * x }
        return Entry(duration: entry.duration, left: mix(entry.left, next.left), right: mix(entry.right, next.right),
                     beat: mix(entry.beat, next.beat), base: mix(entry.base, next.base))
    }

    /// The first index of sorted `values` where `isAtOrAfter` holds (or the count).
    private static func firstIndex(in values: [Double], where isAtOrAfter: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if isAtOrAfter(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// SAX reader for <schedule>: fields, voices and entries, with line numbers for problems.
    final class Reader: NSObject, XMLParserDelegate {
        var sawSchedule = false
        var title = "", summary = "", loops = 1, volumeLeft = 1.0, volumeRight = 1.0
        var voices: [Voice] = []
        var problems: [(line: Int, message: String)] = []
        private var text = ""
        private var inVoice = false
        /// Elements opened and not yet closed (the parser does not flag a truncated file).
        var open: [String] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            open.append(name)
            text = ""
            switch name {
            case "schedule": sawSchedule = true
            case "voice":
                inVoice = true
                voices.append(Voice(type: 0, description: "voice \(voices.count + 1)", muted: false, line: parser.lineNumber))
            case "entry":
                guard inVoice, !voices.isEmpty else { return }
                func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
                guard let duration = number("duration"), duration >= 0, duration.isFinite,
                      let base = number("basefreq"), let beat = number("beatfreq"),
                      let left = number("volume_left"), let right = number("volume_right"),
                      [base, beat, left, right].allSatisfy(\.isFinite) else {
                    problems.append((parser.lineNumber, "<entry> needs numeric duration (≥ 0), basefreq, beatfreq, volume_left and volume_right"))
                    return
                }
                voices[voices.count - 1].entries.append(Entry(duration: duration, left: left, right: right, beat: beat, base: base))
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if open.last == name { open.removeLast() }
            switch name {
            case "title": title = value == "[none]" ? "" : value
            case "schedule_description": summary = value == "[none]" ? "" : value
            case "loops": loops = Int(value) ?? 1
            case "overallvolume_left": volumeLeft = Double(value) ?? 1
            case "overallvolume_right": volumeRight = Double(value) ?? 1
            case "voice":
                inVoice = false
                if let last = voices.indices.last {
                    voices[last].ends = voices[last].entries.reduce(into: []) { $0.append(($0.last ?? 0) + $1.duration) }
                }
            case "type" where inVoice: voices[voices.count - 1].type = Int(value) ?? 0
            case "description" where inVoice: voices[voices.count - 1].description = value
            case "voice_mute" where inVoice: voices[voices.count - 1].muted = value == "1"
            default: break
            }
        }
    }
}
