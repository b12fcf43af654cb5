import CJack
import Glibc

extension JackClient {
    /// The longest client name JACK accepts, so a long `--name` is a usage error before anything
    /// opens. jack_client_name_size() counts the terminating NUL and (in JACK 2) one more byte:
    /// with it at 65, names of 63 characters are the longest that open.
    public static var maximumNameLength: Int { Int(jack_client_name_size()) - 2 }
}

extension JackClient {
    /// The server a client opens on: the one named, else $JACK_DEFAULT_SERVER, else "default"
    /// (libjack's own order), for messages that name it.
    static func serverName(_ given: String?) -> String {
        if let given, !given.isEmpty { return given }
        if let fromEnvironment = getenv("JACK_DEFAULT_SERVER").map({ String(cString: $0) }), !fromEnvironment.isEmpty { return fromEnvironment }
        return "default"
    }
}
