import CJack
import Foundation

/// What every test-side JACK client does the same way: open on the test server, connect with retries.
enum JackTestClients {
    /// A client named `name` (or the name JACK gave it) on `server`, never starting one.
    static func open(_ name: String, server: String) throws -> (client: OpaquePointer, name: String) {
        var status = jack_status_t(rawValue: 0)
        guard let client = entrain_jack_client_open(name, JackNoStartServer, &status, server) else {
            throw TestSupportError.cannotOpenClient
        }
        return (client, String(cString: jack_get_client_name(client)))
    }

    /// Connect `source` to `destination`. A client's ports exist before it is activated and JACK
    /// refuses connections until then, so retry until JACK accepts.
    static func connect(_ client: OpaquePointer, _ source: String, _ destination: String, timeout: TimeInterval) throws {
        var code: Int32 = 0
        do {
            try waitFor("connecting \(source) to \(destination)", timeout: timeout, interval: 0.01) {
                code = jack_connect(client, source, destination)
                return code == 0 || code == EEXIST
            }
        } catch {
            // Say which end is gone: a client that died, or one the server dropped (a test client
            // late for its cycles beyond the server's timeout is made a zombie, its ports kept).
            func state(_ port: String) -> String { jack_port_by_name(client, port) == nil ? "missing" : "present" }
            throw TestSupportError.timeout("connecting \(source) (\(state(source))) to \(destination) (\(state(destination))) (error \(code))")
        }
    }

    /// Activate a client whose callbacks are set.
    static func activate(_ client: OpaquePointer) throws {
        guard jack_activate(client) == 0 else { throw TestSupportError.cannotOpenClient }
    }

    /// Stop and close a client (from deinit: its process callback's memory may go after this).
    static func close(_ client: OpaquePointer) {
        jack_deactivate(client)
        jack_client_close(client)
    }
}
