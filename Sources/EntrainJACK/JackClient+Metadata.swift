import CJack
import EntrainCore

/// Our ports' JACK metadata (pretty names, groups, order, signal types). A server may keep none:
/// PipeWire has no metadata store until a session manager makes one, and then every property
/// fails. One notice says so, and the remaining properties of that handle are not tried.
struct PortMetadata {
    let client: OpaquePointer
    private(set) var unsupported = false

    init(client: OpaquePointer) { self.client = client }

    /// Set `key` on `port` (nothing once one has failed: the server keeps no metadata).
    mutating func set(_ port: OpaquePointer, _ key: UnsafePointer<CChar>?, _ value: String, type: String = "text/plain") {
        guard !unsupported else { return }
        if jack_set_property(client, jack_port_uuid(port), key, value, type) != 0 { unsupported = true }
    }

    /// The descriptive properties of one of our audio or CV ports.
    mutating func describe(_ handle: OpaquePointer, as port: ClientPort) {
        set(handle, JACK_METADATA_PRETTY_NAME, port.prettyName)
        set(handle, JACK_METADATA_PORT_GROUP, port.group)
        set(handle, JACK_METADATA_ORDER, String(port.rawValue), type: "http://www.w3.org/2001/XMLSchema#integer")
        if port.signal == .controlVoltage { set(handle, JACK_METADATA_SIGNAL_TYPE, "CV") }
    }

    static let unsupportedNotice = "the JACK server keeps no port metadata (PipeWire without a session manager?): ports go without pretty names, groups and CV signal types"
}
