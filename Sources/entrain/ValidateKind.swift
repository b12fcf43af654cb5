import EntrainControl
import EntrainFiles
import Foundation
import Kessho

/// What a file given to `validate` is, told by its content (a name can mislead: an AHAP pattern
/// saved as .json, a Gnaural file without its extension), with the extension deciding only for
/// files whose content does not say (JSON that does not parse, text that may be SBaGen's).
enum ValidateKind: Equatable {
    case session(SessionFiles.Format), preset, kessho, playlist, pattern

    static func of(_ file: String) -> ValidateKind {
        let url = URL(fileURLWithPath: file), ext = url.pathExtension.lowercased()
        let byName: ValidateKind = switch ext {
        case "ahap": .pattern
        case "gnaural": .session(.gnaural)
        case "sbg": .session(.sbg)
        default: .session(.json)
        }
        guard let bytes = try? DocumentFile.bytes(url) else { return byName }  // the loader says why
        let skipped: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]  // white space and a UTF-8 BOM
        guard let first = bytes.first(where: { !skipped.contains($0) }) else { return byName }
        if first == UInt8(ascii: "<") { return .session(.gnaural) }
        if first == UInt8(ascii: "{") {
            guard let root = try? KesshoJSONParser.parse(bytes).value else { return byName == .session(.sbg) ? .session(.json) : byName }
            return json(root)
        }
        return byName == .session(.json) && ext != "json" ? .session(.sbg) : byName
    }

    /// JSON says what it is: patterns by their "Pattern" list, sessions by "stages", presets and
    /// playlists by their "format" (or "values" / "items"), Kessho presets by a "state" object or
    /// Kessho keys at the top (the loader takes a bare state too).
    static func json(_ root: KesshoJSONValue) -> ValidateKind {
        guard case .object(let members) = root else { return .session(.json) }
        if case .array? = root["Pattern"] { return .pattern }
        if root["stages"] != nil { return .session(.json) }
        if case .string(let format)? = root["format"] {
            return format == Presets.format ? .preset : format == Playlists.format ? .playlist : .session(.json)
        }
        if root["values"] != nil { return .preset }
        if case .array? = root["items"] { return .playlist }
        if case .object? = root["state"] { return .kessho }
        return members.contains { KesshoParameters.parameter($0.key) != nil } ? .kessho : .session(.json)
    }
}
