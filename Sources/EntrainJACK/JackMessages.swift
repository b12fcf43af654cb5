import CJack
import Glibc
import Synchronization

/// libjack's own messages. While a client opens they are collected instead of printed, so a
/// missing server gives our one clear error rather than four lines of libjack's internals
/// ("Cannot connect to server socket …"); `--log-level debug` shows them. Once open, they go to
/// stderr as before, written with write(2) (no stdio buffer on JACK's threads).
enum JackMessages {
    private static let collected = Mutex<[String]>([])

    /// Collect from now on (until `passThrough`).
    static func collect() {
        let keep: @convention(c) (UnsafePointer<CChar>?) -> Void = { text in
            guard let text else { return }
            JackMessages.collected.withLock { if $0.count < 64 { $0.append(String(cString: text)) } }
        }
        jack_set_error_function(keep)
        jack_set_info_function(keep)
    }

    /// What libjack said since `collect`, emptied.
    static func take() -> [String] { collected.withLock { let all = $0; $0 = []; return all } }

    /// Print libjack's messages on stderr again.
    static func passThrough() {
        let write: @convention(c) (UnsafePointer<CChar>?) -> Void = { text in
            guard let text else { return }
            _ = Glibc.write(STDERR_FILENO, text, strlen(text))
            _ = Glibc.write(STDERR_FILENO, "\n", 1)
        }
        jack_set_error_function(write)
        jack_set_info_function(write)
    }
}
