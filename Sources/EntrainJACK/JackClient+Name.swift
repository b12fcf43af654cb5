import CJack

extension JackClient {
    /// The longest client name JACK accepts, so a long `--name` is a usage error before anything
    /// opens. jack_client_name_size() counts the terminating NUL and (in JACK 2) one more byte:
    /// with it at 65, names of 63 characters are the longest that open.
    public static var maximumNameLength: Int { Int(jack_client_name_size()) - 2 }
}
