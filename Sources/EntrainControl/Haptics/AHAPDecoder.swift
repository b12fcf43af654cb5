import EntrainFiles
import Foundation

/// Reads an .ahap file (Apple Haptic and Audio Pattern, JSON) into an `AHAPPattern`.
///
/// Lenient where Core Haptics is: missing keys take defaults, out-of-range values are clamped and
/// unknown keys ignored, each with a warning. Strict about anything that would play something other
/// than what was written (wrong types, negative times, unknown event types or parameter IDs,
/// unordered control points): those are errors. Every problem is collected with its
/// file:line:column and all are reported together.
public struct AHAPDecoder {
    /// Limits that keep a hostile or mistaken file from costing much memory or time (the file's
    /// size is capped by `InputLimits.documentBytes`, as for every document).
    public static let maxEntries = 10_000            // Pattern entries plus curve control points
    public static let maxPatternLength = 600.0       // seconds: nothing may start or end later
    public static let maxContinuousDuration = 30.0   // Core Haptics' limit for a continuous event
    /// Rendering costs a step per tick per event: bound the events' summed length (10 overlapping
    /// at every moment of a 10-minute pattern) so a file cannot take minutes to load.
    public static let maxSummedEventTime = 6_000.0

    static let topKeys = ["Version", "Metadata", "Pattern"]
    static let entryKeys = ["Event", "Parameter", "ParameterCurve"]
    static let eventKeys = ["Time", "EventType", "EventDuration", "EventParameters",
                            "EventWaveformPath", "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled"]
    static let eventTypes = ["HapticTransient", "HapticContinuous", "AudioContinuous", "AudioCustom"]

    let file: String
    var problems: [AHAPProblem] = []

    /// `label` names the file in messages (default: its path).
    public static func load(contentsOf url: URL, label: String? = nil) throws -> (pattern: AHAPPattern, warnings: [AHAPProblem]) {
        let file = label ?? url.path
        let text: String
        do { text = try DocumentFile.text(url, label: file) } catch {
            throw AHAPLoadError(problems: [AHAPProblem(file: file, line: 0, column: 0, message: error.reason, isWarning: false)])
        }
        return try decode(text, file: file)
    }

    public static func decode(_ text: String, file: String) throws -> (pattern: AHAPPattern, warnings: [AHAPProblem]) {
        let size = text.utf8.count
        if size > InputLimits.documentBytes {
            throw AHAPLoadError(problems: [AHAPProblem(file: file, line: 1, column: 1,
                message: "too large: files of at most \(InputLimits.documentBytesText) are read", isWarning: false)])
        }
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let e as JSONSyntaxError {
            throw AHAPLoadError(problems: [AHAPProblem(file: file, line: e.line, column: e.column, message: e.message, isWarning: false)])
        }
        var decoder = AHAPDecoder(file: file)
        let pattern = decoder.pattern(root)
        // File order reads best; the index keeps problems at one position in the order found.
        let sorted = decoder.problems.enumerated().sorted {
            ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
        }.map(\.element)
        guard let pattern, !sorted.contains(where: { !$0.isWarning }) else { throw AHAPLoadError(problems: sorted) }
        return (pattern, sorted.filter(\.isWarning))
    }

    private mutating func pattern(_ root: JSONNode) -> AHAPPattern? {
        guard case .object(let members) = root.value else {
            problem(root, "an .ahap file is an object with \"Version\" and \"Pattern\", got \(root.kindName)")
            return nil
        }
        warnUnknown(members, known: Self.topKeys, where: "the file")
        var result = AHAPPattern()
        if let version = root["Version"] { result.version = number(version, "Version") }
        if let metadata = root["Metadata"] {
            if case .object(let fields) = metadata.value {
                for (key, value) in fields { if case .string(let s) = value.value { result.metadata[key] = s } }
            } else {
                problem(metadata, "Metadata should be an object, got \(metadata.kindName); ignored", warning: true)
            }
        }
        guard let patternNode = root["Pattern"] else {
            problem(root, "missing \"Pattern\": a list of Event, Parameter and ParameterCurve entries")
            return nil
        }
        guard case .array(let entries) = patternNode.value else {
            problem(patternNode, "Pattern must be a list of Event, Parameter and ParameterCurve entries, got \(patternNode.kindName)")
            return nil
        }
        guard !entries.isEmpty else { problem(patternNode, "Pattern is empty: nothing to play"); return nil }
        // Count before decoding so an oversized file costs nothing more.
        let points = entries.reduce(0) { total, entry in
            if case .array(let p)? = entry["ParameterCurve"]?["ParameterCurveControlPoints"]?.value { return total + p.count }
            return total
        }
        guard entries.count + points <= Self.maxEntries else {
            problem(patternNode, "Pattern holds \(entries.count) entries and \(points) control points; at most \(Self.maxEntries) in all are read")
            return nil
        }
        for (i, entry) in entries.enumerated() { self.entry(entry, number: i + 1, into: &result) }
        let summed = result.events.reduce(0) { $0 + ($1.kind == .transient ? AHAPEnvelope.longestTransient : $1.duration) }
        if summed > Self.maxSummedEventTime {
            problem(patternNode, "the events add up to \(format(summed)) s of playing; at most \(format(Self.maxSummedEventTime)) s are rendered")
        }
        if result.events.isEmpty, !problems.contains(where: { !$0.isWarning }) {
            problem(patternNode, "Pattern has no HapticTransient or HapticContinuous event: nothing to play")
        }
        return result
    }

    private mutating func entry(_ node: JSONNode, number: Int, into result: inout AHAPPattern) {
        guard case .object(let members) = node.value else {
            problem(node, "Pattern entry \(number) must be an object with one key (Event, Parameter or ParameterCurve), got \(node.kindName)")
            return
        }
        warnUnknown(members, known: Self.entryKeys, where: "Pattern entry \(number)")
        let kinds = members.filter { Self.entryKeys.contains($0.key) }
        guard kinds.count == 1, let (key, body) = kinds.first else {
            if kinds.isEmpty {
                problem(node, "Pattern entry \(number) has no Event, Parameter or ParameterCurve; ignored", warning: true)
            } else {
                problem(node, "Pattern entry \(number) holds \(kinds.map(\.key).joined(separator: " and ")); each entry holds exactly one")
            }
            return
        }
        guard case .object = body.value else { problem(body, "\(key) must be an object, got \(body.kindName)"); return }
        switch key {
        case "Event": if let event = event(body) { result.events.append(event) }
        case "Parameter": if let parameter = parameter(body) { result.parameters.append(parameter) }
        default: if let curve = curve(body) { result.curves.append(curve) }
        }
    }

    private mutating func event(_ node: JSONNode) -> AHAPPattern.Event? {
        guard case .object(let members) = node.value else { return nil }
        warnUnknown(members, known: Self.eventKeys, where: "Event")
        let time = startTime(node, "Event")
        guard let typeNode = node["EventType"] else {
            problem(node, "Event needs an EventType: HapticTransient or HapticContinuous")
            return nil
        }
        guard case .string(let typeName) = typeNode.value else {
            problem(typeNode, "EventType must be a string (HapticTransient or HapticContinuous), got \(typeNode.kindName)")
            return nil
        }
        guard let kind = AHAPPattern.EventKind(rawValue: typeName) else {
            if Self.eventTypes.contains(typeName) {
                problem(typeNode, "\(typeName) events are audio; entrain renders haptics only, so this one is ignored", warning: true)
            } else {
                problem(typeNode, "EventType \"\(typeName)\" is not one of \(Self.eventTypes.joined(separator: ", "))\(hint(typeName, Self.eventTypes))")
            }
            return nil
        }
        for key in ["EventWaveformPath", "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled"] {
            if let n = node[key] { problem(n, "\(key) belongs to audio events; ignored", warning: true) }
        }
        var event = AHAPPattern.Event(kind: kind, time: time ?? 0)
        if let durationNode = node["EventDuration"] {
            if kind == .transient {
                problem(durationNode, "EventDuration is ignored for a HapticTransient (it is a brief impulse)", warning: true)
            } else if let d = number(durationNode, "EventDuration", unit: "seconds") {
                if d <= 0 {
                    problem(durationNode, "EventDuration must be greater than 0 seconds, got \(format(d))")
                } else if d > Self.maxContinuousDuration {
                    problem(durationNode, "EventDuration \(format(d)) s is longer than the \(format(Self.maxContinuousDuration)) s a continuous event may last; cut to \(format(Self.maxContinuousDuration)) s", warning: true)
                    event.duration = Self.maxContinuousDuration
                } else {
                    event.duration = d
                }
            }
        } else if kind == .continuous {
            problem(node, "a HapticContinuous event needs an EventDuration (seconds)")
        }
        if let parameters = node["EventParameters"] { eventParameters(parameters, into: &event) }
        if let time, let timeNode = node["Time"], time + event.duration > Self.maxPatternLength {
            problem(timeNode, "the event ends at \(format(time + event.duration)) s; patterns may last at most \(format(Self.maxPatternLength)) s (10 minutes)")
        }
        return event
    }

    private mutating func eventParameters(_ node: JSONNode, into event: inout AHAPPattern.Event) {
        guard case .array(let items) = node.value else {
            problem(node, "EventParameters must be a list of {\"ParameterID\", \"ParameterValue\"}, got \(node.kindName)")
            return
        }
        var seen: Set<EventParameterID> = []
        for item in items {
            guard let (id, value, valueNode) = parameterPair(item, eventParameter: true) else { continue }
            guard let id = EventParameterID(rawValue: id) else { continue }
            if !seen.insert(id).inserted {
                problem(item, "\(id.rawValue) is given twice in this event; the last value is used", warning: true)
            }
            if id.isAudio { problem(valueNode, "\(id.rawValue) is an audio parameter; ignored", warning: true); continue }
            if event.kind == .transient, [.attackTime, .releaseTime, .sustained].contains(id) {
                problem(valueNode, "\(id.rawValue) does not act on a HapticTransient; ignored", warning: true)
                continue
            }
            let v = clamp(value, to: id.range, valueNode, id.rawValue)
            switch id {
            case .hapticIntensity: event.intensity = v
            case .hapticSharpness: event.sharpness = v
            case .attackTime: event.attackTime = v
            case .decayTime: event.decayTime = v
            case .releaseTime: event.releaseTime = v
            case .sustained:
                if v != 0, v != 1 { problem(valueNode, "Sustained is 0 or 1; \(format(v)) is read as \(v >= 0.5 ? 1 : 0)", warning: true) }
                event.sustained = v >= 0.5
            default: break
            }
        }
    }

    private mutating func parameter(_ node: JSONNode) -> AHAPPattern.DynamicParameter? {
        guard case .object(let members) = node.value else { return nil }
        warnUnknown(members, known: ["ParameterID", "ParameterValue", "Time"], where: "Parameter")
        let time = startTime(node, "Parameter")
        guard let (name, value, valueNode) = parameterPair(node, eventParameter: false),
              let id = ControlID(rawValue: name) else { return nil }
        if id.isAudio { problem(valueNode, "\(name) is an audio control; ignored", warning: true); return nil }
        guard let time else { return nil }
        return AHAPPattern.DynamicParameter(id: id, time: time, value: clamp(value, to: id.range, valueNode, name))
    }

    private mutating func curve(_ node: JSONNode) -> AHAPPattern.ParameterCurve? {
        guard case .object(let members) = node.value else { return nil }
        warnUnknown(members, known: ["ParameterID", "Time", "ParameterCurveControlPoints"], where: "ParameterCurve")
        let time = startTime(node, "ParameterCurve")
        let id = controlID(node)
        guard let pointsNode = node["ParameterCurveControlPoints"] else {
            problem(node, "ParameterCurve needs ParameterCurveControlPoints: a list of {\"Time\", \"ParameterValue\"}")
            return nil
        }
        guard case .array(let items) = pointsNode.value, !items.isEmpty else {
            problem(pointsNode, "ParameterCurveControlPoints must be a non-empty list of {\"Time\", \"ParameterValue\"}, got \(pointsNode.kindName)")
            return nil
        }
        var points: [AHAPPattern.ParameterCurve.Point] = []
        var complete = true
        for item in items {
            guard case .object(let fields) = item.value else {
                problem(item, "a control point must be an object {\"Time\", \"ParameterValue\"}, got \(item.kindName)")
                complete = false
                continue
            }
            warnUnknown(fields, known: ["Time", "ParameterValue"], where: "control point")
            let t = startTime(item, "control point")
            var v: Double?
            if let valueNode = item["ParameterValue"] {
                if let n = number(valueNode, "ParameterValue") { v = id.map { clamp(n, to: $0.range, valueNode, $0.rawValue) } ?? n }
            } else {
                problem(item, "a control point needs a ParameterValue")
            }
            guard let t, let v else { complete = false; continue }
            if let previous = points.last, t < previous.time, let timeNode = item["Time"] {
                problem(timeNode, "control point Time \(format(t)) is earlier than the point before it (\(format(previous.time))); points must be in time order")
                complete = false
            }
            points.append(.init(time: t, value: v))
        }
        if let time, let last = points.last, time + last.time > Self.maxPatternLength {
            problem(pointsNode, "the curve ends at \(format(time + last.time)) s; patterns may last at most \(format(Self.maxPatternLength)) s (10 minutes)")
        }
        guard let id, let time, complete else { return nil }
        if id.isAudio { problem(node["ParameterID"] ?? node, "\(id.rawValue) is an audio control; ignored", warning: true); return nil }
        return AHAPPattern.ParameterCurve(id: id, time: time, points: points)
    }
}
