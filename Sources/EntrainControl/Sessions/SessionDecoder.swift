import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import EntrainFiles
import Foundation

/// Reads a session file, collecting every problem with its file:line:column and what was
/// expected; values are checked by the engine's parameter table, rules that span parameters
/// (the isochronic minimum rate, …) stage by stage as the values accumulate.
public struct SessionDecoder {
    public static let format = "entrain-session/1"
    static let voiceFields = ["mode", "carrier", "beat", "waveform", "level", "convention", "duty", "edge"]
    static let stageKeys = ["name", "duration", "transition", "fade", "volume", "noise", "voices", "set"]
    static let topKeys = ["format", "name", "description", "stages"]

    let file: String
    let table = Engine.parameterTable
    private(set) var problems: [SessionProblem] = []
    private var lastConstraintProblem: String?

    /// `label` names the file in problems (default: its path).
    public static func load(_ url: URL, label: String? = nil) throws -> (session: Session, warnings: [SessionProblem]) {
        let file = label ?? url.path
        return try decode(try SessionLoadError.reading { try DocumentFile.text(url, label: file) }, file: file)
    }

    public static func decode(_ text: String, file: String) throws -> (session: Session, warnings: [SessionProblem]) {
        var decoder = SessionDecoder(file: file)
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let e as JSONSyntaxError {
            throw SessionLoadError(problems: [SessionProblem(file: file, line: e.line, column: e.column, message: e.message, isWarning: false)])
        }
        let session = decoder.session(root)
        let errors = decoder.problems.filter { !$0.isWarning }
        guard errors.isEmpty, let session else { throw SessionLoadError(problems: decoder.problems) }
        return (session, decoder.problems.filter(\.isWarning))
    }

    private mutating func problem(_ node: JSONNode, _ message: String, warning: Bool = false) {
        problems.append(SessionProblem(file: file, line: node.line, column: node.column, message: message, isWarning: warning))
    }

    private mutating func session(_ root: JSONNode) -> Session? {
        guard case .object(let members) = root.value else { problem(root, "expected an object with \"stages\""); return nil }
        warnUnknown(members, known: Self.topKeys, where: "the session")
        if let format = root["format"], format.value != .string(Self.format) {
            problem(format, "expected \"format\": \"\(Self.format)\"")
        }
        let name = text(root["name"], "name") ?? "untitled"
        let description = text(root["description"], "description") ?? ""
        guard let stagesNode = root["stages"] else { problem(root, "missing \"stages\": a list of stages"); return nil }
        guard case .array(let items) = stagesNode.value, !items.isEmpty else { problem(stagesNode, "\"stages\" must be a non-empty list"); return nil }
        guard items.count <= InputLimits.sessionStages else {
            problem(items[InputLimits.sessionStages], "more than \(InputLimits.grouped(InputLimits.sessionStages)) stages (a day of one-second stages is 86,400)")
            return nil
        }
        var values = table.defaults
        var stages: [Session.Stage] = []
        for (i, item) in items.enumerated() {
            if let stage = stage(item, number: i + 1, values: &values) { stages.append(stage) }
        }
        return Session(name: name, description: description, stages: stages)
    }

    private mutating func stage(_ node: JSONNode, number: Int, values: inout ParameterValues) -> Session.Stage? {
        guard case .object(let members) = node.value else { problem(node, "stage \(number): expected an object"); return nil }
        let plugins = members.filter { !Self.stageKeys.contains($0.key) && isObject($0.value) }
        warnUnknown(members.filter { !isObject($0.value) }, known: Self.stageKeys, where: "stage \(number)")
        let name = text(node["name"], "name") ?? "stage \(number)"
        // Check the whole stage even when its duration is missing or wrong: report everything at once.
        var duration = 0.0
        if let durationNode = node["duration"] {
            duration = self.duration(durationNode) ?? 0
        } else {
            problem(node, "stage \(number): missing \"duration\" (seconds, or \"mm:ss\")")
        }
        var transition = Session.Transition.hold
        if let t = node["transition"] {
            if case .string(let s) = t.value, let parsed = Session.Transition(rawValue: s) { transition = parsed } else {
                problem(t, "\"transition\" must be one of \(Session.Transition.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        var fade = 5.0
        if let f = node["fade"] {
            if case .number(let n) = f.value, n >= 0, n <= duration || duration == 0 { fade = n } else { problem(f, "\"fade\" must be a number of seconds from 0 to the stage's duration") }
        }
        var changes: [(address: String, value: Double)] = []
        if let volume = node["volume"] { change("/entrain/volume", volume, &changes) }
        if let noise = node["noise"] {
            if case .object(let fields) = noise.value {
                warnUnknown(fields, known: ["color", "level"], where: "noise")
                if let c = noise["color"] { change("/entrain/noise", c, &changes) }
                if let l = noise["level"] { change("/entrain/noise/level", l, &changes) }
            } else { problem(noise, "\"noise\" must be an object like {\"color\": \"pink\", \"level\": 0.2}") }
        }
        if let voicesNode = node["voices"] {
            if case .array(let voices) = voicesNode.value {
                if voices.count > EntrainmentParameters.voiceCount { problem(voicesNode, "at most \(EntrainmentParameters.voiceCount) voices") }
                for (v, voice) in voices.prefix(EntrainmentParameters.voiceCount).enumerated() {
                    if voice.value == .null { continue }
                    guard case .object(let fields) = voice.value else { problem(voice, "voice \(v + 1): expected an object (or null for no change)"); continue }
                    warnUnknown(fields, known: Self.voiceFields, where: "voice \(v + 1)")
                    for field in Self.voiceFields {
                        if let value = voice[field] { change("\(EntrainmentParameters.prefix(voice: v))/\(field)", value, &changes) }
                    }
                }
            } else { problem(voicesNode, "\"voices\" must be a list (voice 1 first)") }
        }
        let sets = node["set"].map { setBlock($0, number: number) } ?? []
        for (address, value) in changes {
            if let entry = try? table.entry(for: address) { values[entry.index] = value }
        }
        if let folded = try? EngineFamily.fold(sets, into: values) { values = folded }
        do {
            try table.checkConstraints(values)
            lastConstraintProblem = nil
        } catch {
            // A rule broken in one stage stays broken in the next ones: say it once.
            if "\(error)" != lastConstraintProblem { problem(node, "stage \(number) (\(name)): \(error)") }
            lastConstraintProblem = "\(error)"
        }
        guard duration > 0 else { return nil }
        return Session.Stage(name: name, duration: duration, transition: transition, fade: fade, changes: changes,
                             pluginBlocks: plugins, sets: sets)
    }

    /// Check one value with the address space's rules (as OSC would) and record what it sets.
    private mutating func change(_ address: String, _ node: JSONNode, _ changes: inout [(address: String, value: Double)]) {
        guard let given = ControlValue(json: node.value) else {
            problem(node, "\(address): expected a number or a name, got \(node.kindName)")
            return
        }
        do {
            changes += try EngineFamily.numbers(try StandardAddresses.parse(address, given, from: .file))
        } catch {
            problem(node, "\(error)")
        }
    }

    /// A stage's `"set"` block: address → value for any address of the client, checked as OSC
    /// checks it. A person's decision (arming the strobe) is refused, directly or as a mapping's
    /// target: a file never starts flashing light.
    private mutating func setBlock(_ node: JSONNode, number: Int) -> [ControlChange] {
        guard case .object(let members) = node.value else {
            problem(node, "stage \(number): \"set\" must be an object of address: value, e.g. {\"/led/manual\": 0.7}")
            return []
        }
        var out: [ControlChange] = []
        for (address, valueNode) in members {
            guard let given = ControlValue(json: valueNode.value) else {
                problem(valueNode, "stage \(number): \"set\": \(address): expected a number, a name or true/false, got \(valueNode.kindName)")
                continue
            }
            do {
                out.append(try StandardAddresses.parse(address, given, from: .file))
            } catch {
                problem(valueNode, "stage \(number): \"set\": \(error)")
            }
        }
        return out
    }

    /// Seconds as a number, or "hh:mm:ss" / "mm:ss" (plain decimal fields), more than 0 and at
    /// most `Session.maximumStageSeconds`.
    private mutating func duration(_ node: JSONNode) -> Double? {
        var seconds: Double?
        switch node.value {
        case .number(let n): seconds = n
        case .string(let s): seconds = Self.clock(s)
        default: break
        }
        if let seconds, seconds > 0, seconds <= Session.maximumStageSeconds { return seconds }
        problem(node, "\"duration\" must be more than 0 and at most a week (604800 seconds): a number of seconds, or \"mm:ss\" / \"hh:mm:ss\"")
        return nil
    }

    /// "mm:ss" or "hh:mm:ss" in seconds; each field plain digits (the last may have a fraction),
    /// so "inf", "1e30" and signs are refused.
    static func clock(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (i, field) in fields.enumerated() {
            let parts = field.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let digitsOnly = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            guard digitsOnly, parts.count == 1 || i == fields.count - 1, field.count <= 20, let value = Double(field) else { return nil }
            total = total * 60 + value
        }
        return total
    }

    private mutating func text(_ node: JSONNode?, _ key: String) -> String? {
        guard let node else { return nil }
        if case .string(let s) = node.value { return s }
        problem(node, "\"\(key)\" must be a string")
        return nil
    }

    private func isObject(_ node: JSONNode) -> Bool { if case .object = node.value { return true }; return false }

    private mutating func warnUnknown(_ members: [(key: String, value: JSONNode)], known: [String], where place: String) {
        for (key, node) in members where !known.contains(key) {
            let guess = known.min { Self.distance($0, key) < Self.distance($1, key) }
            let hint = guess.flatMap { Self.distance($0, key) <= 2 ? " (did you mean \"\($0)\"?)" : nil } ?? ""
            problem(node, "\(place): unknown key \"\(key)\"\(hint); it is kept but not used", warning: true)
        }
    }

    /// Edit distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        var row = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, y.count) where !y.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[y.count]
    }
}
