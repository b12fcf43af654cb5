/// A bus's chain as one line of text, the form presets, the last-used settings and
/// `/fx/BUS/chain` carry: slots separated by " | ", each its URI then `symbol=value` for every
/// input control, `bypass=on` when bypassed and `state=…` when the plugin keeps an internal
/// state (see `PluginState`). E.g.
/// `http://plugin.org.uk/swh-plugins/amp gain=-6 | http://plugin.org.uk/swh-plugins/lowpass_iir cutoff=1000 stages=4`.
public struct ChainText: Equatable, Sendable {
    public struct Slot: Equatable, Sendable {
        public var uri: String
        public var values: [(symbol: String, value: Float)]
        public var heard: Bool
        /// The plugin's internal state (`PluginState.encoded`), when it keeps one.
        public var state: String?

        public init(uri: String, values: [(symbol: String, value: Float)], heard: Bool, state: String? = nil) {
            self.uri = uri
            self.values = values
            self.heard = heard
            self.state = state
        }

        public static func == (a: Slot, b: Slot) -> Bool {
            a.uri == b.uri && a.heard == b.heard && a.state == b.state && a.values.map(\.symbol) == b.values.map(\.symbol) && a.values.map(\.value) == b.values.map(\.value)
        }
    }

    public var slots: [Slot]

    public init(_ slots: [Slot]) { self.slots = slots }

    /// Parse; a malformed slot is an error naming it (an empty text is an empty chain).
    public init(parsing text: String) throws {
        slots = try text.split(separator: "|").map { piece in
            let words = piece.split(separator: " ").map(String.init)
            guard let uri = words.first else { throw LV2Error.badChain("an empty slot in '\(text)'") }
            var slot = Slot(uri: uri, values: [], heard: true)
            for word in words.dropFirst() {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw LV2Error.badChain("'\(word)' is not symbol=value (slot \(uri))") }
                if parts[0] == "state" {
                    _ = try PluginState(decoding: parts[1])
                    slot.state = parts[1]
                } else if parts[0] == "bypass" {
                    guard ["on", "off", "1", "0"].contains(parts[1]) else { throw LV2Error.badChain("bypass takes on or off, got '\(parts[1])'") }
                    slot.heard = parts[1] == "off" || parts[1] == "0"
                } else {
                    guard let value = Float(parts[1]), value.isFinite else {
                        throw LV2Error.badChain("'\(parts[1])' is not a number (\(parts[0]) of \(uri))")
                    }
                    slot.values.append((parts[0], value))
                }
            }
            return slot
        }
    }

    public var text: String {
        slots.map { slot in
            ([slot.uri] + slot.values.map { "\($0.symbol)=\($0.value.description)" } + (slot.heard ? [] : ["bypass=on"]) + (slot.state.map { ["state=" + $0] } ?? []))
                .joined(separator: " ")
        }.joined(separator: " | ")
    }
}
