import CJack
import EntrainCore
import Glibc

/// Our ports' JACK metadata (pretty names, groups, order, signal types). A server may keep none:
/// PipeWire has no metadata store until a session manager makes one, and then every property
/// fails: one notice says so. Each property is tried on its own (PipeWire has been seen to refuse
/// one port's and take the next's), and the ones refused are counted for the log.
struct PortMetadata {
    let client: OpaquePointer
    private(set) var stored = 0
    private(set) var refused: [String] = []

    init(client: OpaquePointer) { self.client = client }

    /// No property was kept: the server keeps no metadata.
    var unsupported: Bool { stored == 0 && !refused.isEmpty }

    /// Set `key` on `port`. Once the server has kept one property, a refusal is tried again a
    /// few times over 200 ms: PipeWire refuses a port it has not registered yet (at start-up,
    /// not on the process thread).
    mutating func set(_ port: OpaquePointer, _ key: UnsafePointer<CChar>?, _ value: String, type: String = "text/plain") {
        let tries = stored > 0 ? 10 : 1
        for attempt in 1...tries {
            if jack_set_property(client, jack_port_uuid(port), key, value, type) == 0 {
                stored += 1
                return
            }
            if attempt < tries { usleep(20_000) }
        }
        refused.append(String(cString: jack_port_short_name(port)))
    }

    /// The descriptive properties of one of our audio or CV ports.
    mutating func describe(_ handle: OpaquePointer, as port: ClientPort) {
        set(handle, JACK_METADATA_PRETTY_NAME, port.prettyName)
        set(handle, JACK_METADATA_PORT_GROUP, port.group)
        set(handle, JACK_METADATA_ORDER, String(port.rawValue), type: "http://www.w3.org/2001/XMLSchema#integer")
        if port.signal == .controlVoltage { set(handle, JACK_METADATA_SIGNAL_TYPE, "CV") }
    }

    /// What to say when some properties were refused and others kept.
    var partialNotice: String? {
        guard !refused.isEmpty, !unsupported else { return nil }
        return "the JACK server refused \(refused.count) port metadata propert\(refused.count == 1 ? "y" : "ies") (of \(Set(refused).sorted().joined(separator: ", ")))"
    }

    static let unsupportedNotice = "the JACK server keeps no port metadata (PipeWire without a session manager?): ports go without pretty names, groups and CV signal types"
}
