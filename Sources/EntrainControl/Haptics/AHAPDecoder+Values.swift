import Foundation

/// The checks shared by every entry: numbers, times, parameter IDs, clamping, unknown keys.
/// Each returns nil after recording an error, so the caller can carry on and find the next one.
extension AHAPDecoder {
    mutating func problem(_ node: JSONNode, _ message: String, warning: Bool = false) {
        problems.append(AHAPProblem(file: file, line: node.line, column: node.column, message: message, isWarning: warning))
    }

    /// A JSON number; the message names the key and, when there is one, the unit.
    mutating func number(_ node: JSONNode, _ key: String, unit: String? = nil) -> Double? {
        if case .number(let n) = node.value { return n }
        problem(node, "\(key) must be a number\(unit.map { " (\($0))" } ?? ""), got \(node.kindName)")
        return nil
    }

    /// The `Time` of an event, parameter, curve or control point: 0 when missing (Core Haptics'
    /// default), an error when negative or past the pattern limit. Nil only after an error.
    mutating func startTime(_ node: JSONNode, _ place: String) -> Double? {
        guard let timeNode = node["Time"] else {
            problem(node, "\(place) has no Time; 0 is used", warning: true)
            return 0
        }
        guard let t = number(timeNode, "Time", unit: "seconds") else { return nil }
        if t < 0 { problem(timeNode, "Time must not be negative, got \(format(t))"); return nil }
        if t > Self.maxPatternLength {
            problem(timeNode, "Time \(format(t)) s is past the end a pattern may have (\(format(Self.maxPatternLength)) s, 10 minutes)")
            return nil
        }
        return t
    }

    /// The `ParameterID` of a `Parameter` or `ParameterCurve`: a dynamic (…Control) ID.
    mutating func controlID(_ node: JSONNode) -> ControlID? {
        guard let name = parameterID(node, known: ControlID.allCases.map(\.rawValue), wrong: EventParameterID.allCases.map(\.rawValue),
                                     wrongKind: "an event parameter (for EventParameters); here use a …Control ID") else { return nil }
        return ControlID(rawValue: name)
    }

    /// ID, value and the value's node of a `{ParameterID, ParameterValue}` pair, checked against
    /// the event or the dynamic IDs. Values are not clamped here: the caller knows the range.
    mutating func parameterPair(_ node: JSONNode, eventParameter: Bool) -> (String, Double, JSONNode)? {
        guard case .object(let fields) = node.value else {
            problem(node, "a parameter must be an object {\"ParameterID\", \"ParameterValue\"}, got \(node.kindName)")
            return nil
        }
        let name: String?
        if eventParameter {
            warnUnknown(fields, known: ["ParameterID", "ParameterValue"], where: "event parameter")
            name = parameterID(node, known: EventParameterID.allCases.map(\.rawValue), wrong: ControlID.allCases.map(\.rawValue),
                               wrongKind: "a dynamic control (for Parameter and ParameterCurve entries); events take HapticIntensity, HapticSharpness, …")
        } else {
            name = controlID(node)?.rawValue
        }
        guard let valueNode = node["ParameterValue"] else {
            problem(node, "\(name ?? "the parameter") needs a ParameterValue")
            return nil
        }
        var value: Double?
        if case .bool(let b) = valueNode.value, name == EventParameterID.sustained.rawValue {
            value = b ? 1 : 0  // written either way in the wild
        } else {
            value = number(valueNode, "ParameterValue")
        }
        guard let name, let value else { return nil }
        return (name, value, valueNode)
    }

    private mutating func parameterID(_ node: JSONNode, known: [String], wrong: [String], wrongKind: String) -> String? {
        guard let idNode = node["ParameterID"] else { problem(node, "missing ParameterID"); return nil }
        guard case .string(let name) = idNode.value else {
            problem(idNode, "ParameterID must be a string, got \(idNode.kindName)")
            return nil
        }
        if known.contains(name) { return name }
        if wrong.contains(name) {
            problem(idNode, "ParameterID \(name) is \(wrongKind)")
        } else {
            problem(idNode, "ParameterID \"\(name)\" is not a Core Haptics parameter\(hint(name, known))")
        }
        return nil
    }

    /// Core Haptics clamps out-of-range values; we do too, and say where.
    mutating func clamp(_ value: Double, to range: ClosedRange<Double>, _ node: JSONNode, _ name: String) -> Double {
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        if clamped != value {
            problem(node, "\(name) \(format(value)) is outside \(format(range.lowerBound))…\(format(range.upperBound)); clamped to \(format(clamped))", warning: true)
        }
        return clamped
    }

    mutating func warnUnknown(_ members: [(key: String, value: JSONNode)], known: [String], where place: String) {
        for (key, node) in members where !known.contains(key) {
            problem(node, "\(place): unknown key \"\(key)\"\(hint(key, known)); ignored", warning: true)
        }
    }

    /// " (did you mean "X"?)" for a near miss, else nothing.
    func hint(_ word: String, _ candidates: [String]) -> String {
        guard let guess = candidates.min(by: { SessionDecoder.distance($0, word) < SessionDecoder.distance($1, word) }),
              SessionDecoder.distance(guess, word) <= 2 else { return "" }
        return " (did you mean \"\(guess)\"?)"
    }

    /// Numbers as written by people: 2 not 2.0, 0.25 not 0.25000000000000001.
    func format(_ value: Double) -> String { String(format: "%g", value) }
}
