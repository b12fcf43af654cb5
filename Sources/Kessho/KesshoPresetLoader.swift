import EntrainFiles
import Foundation

public enum KesshoPresetError: Error, Equatable, CustomStringConvertible {
    case unreadable(DocumentReadError)
    case malformedJSON(KesshoJSONError)
    case notAnObject
    case stateNotAnObject

    public var description: String {
        switch self {
        case .unreadable(let e): return "\(e)"
        case .malformedJSON(let e): return "malformed preset: \(e)"
        case .notAnObject: return "preset is not a JSON object"
        case .stateNotAnObject: return "preset \"state\" is not a JSON object"
        }
    }
}

/// What to do with a known numeric value outside its quantiser range.
public enum KesshoRangePolicy: Sendable {
    /// Keep the value (what the web's preset loader does; hashes like the web).
    case keep
    /// Clamp into the range (what the web's quantize() would do).
    case clamp
    /// Use the default instead.
    case reject
}

public struct KesshoPresetLoadOptions: Sendable {
    public var rangePolicy: KesshoRangePolicy = .clamp
    /// Apply the web app's rules on applying a preset (granularLevel 0 disables granular, CoF back home, keep the
    /// user's reverbQuality when given).
    public var applyAppRules = true
    /// The user's current reverbQuality preference; nil keeps the value from the merge.
    public var userReverbQuality: String? = nil
    public init() {}
}

public struct KesshoPresetLoadResult: Sendable {
    public var preset: KesshoPreset
    public var warnings: [String]
}

/// Loads preset JSON as the web app does: tolerant parse → migrate legacy keys → normalise →
/// merge over defaults (unknown keys kept after the known ones) → sanitise types → range policy → app rules.
public enum KesshoPresetLoader {
    /// `label` names the file in errors (default: its path).
    public static func load(contentsOf url: URL, label: String? = nil, options: KesshoPresetLoadOptions = .init()) throws -> KesshoPresetLoadResult {
        let bytes: [UInt8]
        do { bytes = try DocumentFile.bytes(url, label: label) } catch { throw KesshoPresetError.unreadable(error) }
        return try load(bytes, fileName: url.deletingPathExtension().lastPathComponent, options: options)
    }

    public static func load(_ bytes: [UInt8], fileName: String? = nil,
                            options: KesshoPresetLoadOptions = .init()) throws -> KesshoPresetLoadResult {
        let parsed: (value: KesshoJSONValue, warnings: [String])
        do { parsed = try KesshoJSONParser.parse(bytes) } catch let e as KesshoJSONError { throw KesshoPresetError.malformedJSON(e) }
        var warnings = parsed.warnings
        let top = parsed.value
        guard case .object(let topMembers) = top else { throw KesshoPresetError.notAnObject }

        // The folder loader also accepts a bare state object.
        let stateMembers: [KesshoJSONMember]
        switch top["state"] {
        case .object(let m)?: stateMembers = m
        case nil:
            warnings.append("no \"state\": treating the whole object as a bare state")
            stateMembers = topMembers
        default: throw KesshoPresetError.stateNotAnObject
        }
        var raw = KesshoOrderedMap<KesshoJSONValue>()
        for m in stateMembers { raw[m.key] = m.value }  // duplicate keys: first position, last value (JS)

        let name: String
        if case .string(let n)? = top["name"] { name = n } else {
            name = fileName ?? "Untitled"
            warnings.append("the preset has no name: it is called \"\(name)\"")
        }
        let timestamp: String
        switch top["timestamp"] {
        case .string(let t)?: timestamp = t
        case .number(let ms)? where abs(ms) <= 8.64e15:  // the iOS docs' numeric (ms) form, in JS Date's range
            timestamp = KesshoPreset.isoTimestamp(Date(timeIntervalSince1970: ms / 1000))
            warnings.append("numeric timestamp converted to \(timestamp)")
        case .number?:
            timestamp = KesshoPreset.isoTimestamp(Date())
            warnings.append("the timestamp is outside JavaScript's dates: the load time is used")
        default:
            timestamp = KesshoPreset.isoTimestamp(Date())
            warnings.append("the preset has no timestamp: the load time is used")
        }

        var dualRanges = readDualRanges(top["dualRanges"], warnings: &warnings)
        var sliderModes = readSliderModes(top["sliderModes"], warnings: &warnings)
        KesshoPresetMigration.migrate(&raw, dualRanges: &dualRanges, sliderModes: &sliderModes,
                                      sliderModesPresent: top["sliderModes"] != nil, warnings: &warnings)
        KesshoPresetMigration.normalize(&raw, warnings: &warnings)

        let statePlaces = places(stateMembers, in: bytes)
        var dualPlaces: [String: String] = [:]
        if case .object(let members)? = top["dualRanges"] { dualPlaces = places(members, in: bytes) }
        KesshoPresetSanitizer.checkDualRanges(&dualRanges, policy: options.rangePolicy, place: { dualPlaces[$0] ?? "" },
                                              warnings: &warnings)
        var state = KesshoPresetSanitizer.merge(raw, policy: options.rangePolicy, place: { statePlaces[$0] ?? "" },
                                                warnings: &warnings)
        KesshoPresetSanitizer.zeroDisabledLevels(&state)
        if options.applyAppRules { applyAppRules(&state, options: options) }
        return KesshoPresetLoadResult(preset: KesshoPreset(name: name, timestamp: timestamp, state: state,
                                                           dualRanges: dualRanges, sliderModes: sliderModes),
                                      warnings: warnings)
    }

    /// "line L, column C: " for each member's key (the last of duplicates, whose value counts).
    private static func places(_ members: [KesshoJSONMember], in bytes: [UInt8]) -> [String: String] {
        let positions = KesshoJSONParser.positions(of: members.compactMap(\.offset), in: bytes)
        var out: [String: String] = [:]
        for m in members {
            if let offset = m.offset, let p = positions[offset] { out[m.key] = "line \(p.line), column \(p.column): " }
        }
        return out
    }

    static func applyAppRules(_ s: inout KesshoState, options: KesshoPresetLoadOptions) {
        if let q = options.userReverbQuality { s["reverbQuality"] = .string(q) }
        if s.number("granularLevel") == 0 { s["granularEnabled"] = .bool(false) }
        s["cofCurrentStep"] = .number(0)
    }

    private static func readDualRanges(_ v: KesshoJSONValue?, warnings: inout [String]) -> KesshoOrderedMap<KesshoDualRange> {
        var out = KesshoOrderedMap<KesshoDualRange>()
        guard case .object(let members)? = v else { return out }
        for m in members {
            if case .number(let lo)? = m.value["min"], case .number(let hi)? = m.value["max"] {
                out[m.key] = KesshoDualRange(min: lo, max: hi)
            } else {
                warnings.append("dualRanges.\(m.key) is not {min, max} numbers, dropped")
            }
        }
        return out
    }

    private static func readSliderModes(_ v: KesshoJSONValue?, warnings: inout [String]) -> KesshoOrderedMap<KesshoSliderMode> {
        var out = KesshoOrderedMap<KesshoSliderMode>()
        guard case .object(let members)? = v else { return out }
        for m in members {
            if case .string(let s) = m.value, let mode = KesshoSliderMode(rawValue: s) {
                if mode != .single { out[m.key] = mode }
            } else {
                warnings.append("sliderModes.\(m.key) is not walk/sampleHold/single, dropped")
            }
        }
        return out
    }
}
