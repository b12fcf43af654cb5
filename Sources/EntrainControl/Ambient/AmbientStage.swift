import Foundation

/// A session stage's `"ambient": {"preset": NAME, "crossfade": seconds}` block: at the stage's
/// first frame the ambient engine glides to the preset (and starts if silent). `crossfade` is
/// optional (default 0: at once).
public struct AmbientStage: Sendable, Equatable {
    public let preset: String
    public let crossfade: Double

    /// The stage's block, if it has a usable one (problems are reported by `problems(in:)`).
    static func parse(_ stage: Session.Stage) -> AmbientStage? {
        guard let block = stage.pluginBlocks.last(where: { $0.key == "ambient" })?.value,
              case .string(let name)? = block["preset"]?.value else { return nil }
        let crossfade: Double
        if case .number(let n)? = block["crossfade"]?.value { crossfade = n } else { crossfade = 0 }
        return AmbientStage(preset: name, crossfade: crossfade)
    }
}

extension AmbientPresets {
    /// Every problem of `session`'s ambient blocks, where it is in `file`: a missing or
    /// unreadable preset is an error at load time, not a surprise an hour into the session.
    public func problems(in session: Session, file: String) -> [SessionProblem] {
        var out: [SessionProblem] = []
        func problem(_ node: JSONNode, _ message: String) {
            out.append(SessionProblem(file: file, line: node.line, column: node.column, message: message, isWarning: false))
        }
        for (number, stage) in session.stages.enumerated() {
            guard let block = stage.pluginBlocks.last(where: { $0.key == "ambient" })?.value else { continue }
            let place = "stage \(number + 1): \"ambient\""
            if case .object(let members) = block.value, let unknown = members.first(where: { !["preset", "crossfade"].contains($0.key) }) {
                problem(unknown.value, "\(place): unknown key \"\(unknown.key)\" (preset, crossfade)")
            }
            if let fade = block["crossfade"] {
                if case .number(let n) = fade.value, n >= 0, n <= AmbientController.maximumFade {} else {
                    problem(fade, "\(place): \"crossfade\" must be a number of seconds from 0 to \(Int(AmbientController.maximumFade))")
                }
            }
            guard let presetNode = block["preset"], case .string(let name) = presetNode.value else {
                problem(block["preset"] ?? block, "\(place) needs \"preset\": a preset name (from presets/ambient)")
                continue
            }
            do { _ = try load(name, keepingReverbQuality: nil) } catch { problem(presetNode, "\(place): \(error)") }
        }
        return out
    }

    /// Throws the problems of `problems(in:file:)`, if any, as a session load error.
    public func check(_ session: Session, file: String) throws {
        let found = problems(in: session, file: file)
        if !found.isEmpty { throw SessionLoadError(problems: found) }
    }
}
