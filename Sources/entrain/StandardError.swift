import Glibc

/// Text to stderr with write(2), ignoring failure: a closed pipe (EPIPE, SIGPIPE ignored) or a
/// full disk must never stop a live client over a status line. (FileHandle.write traps on them.)
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }
}
