import Kessho

/// The ambient state as feedback: every key on /ambient/KEY (and /norm where it has one),
/// whatever changed it (OSC, a preset's crossfade, a session stage, the engine's drift).
/// Used by the feedback hub on the server thread only.
struct AmbientFeedback {
    let controller: AmbientController
    private var last: KesshoState?

    init(_ controller: AmbientController) { self.controller = controller }

    /// Every key: what a new subscriber needs.
    func fullState() -> [OSCMessage] {
        guard let state = controller.conductor?.state else { return [] }
        return state.entries.filter { KesshoParameters.index[$0.key] != nil }.flatMap { Self.messages($0.key, $0.value) }
    }

    /// The keys that changed since the last call.
    mutating func changes() -> [OSCMessage] {
        guard let state = controller.conductor?.state else { return [] }
        defer { last = state }
        guard let last, last != state else { return [] }
        return state.entries.filter { KesshoParameters.index[$0.key] != nil && last[$0.key] != $0.value }
            .flatMap { Self.messages($0.key, $0.value) }
    }

    static func messages(_ key: String, _ value: KesshoValue) -> [OSCMessage] {
        let address = AmbientController.prefix + key
        var out = [OSCMessage(address, [AmbientParameters.natural(value)])]
        if let n = AmbientParameters.normalized(value, for: key) { out.append(OSCMessage(address + "/norm", [.float(n)])) }
        return out
    }
}
