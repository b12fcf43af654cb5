import EntrainHRV
import Foundation
import Glibc

/// A recording of HRV updates (JSON Lines, docs/hrv.md): a header, then one line per update,
/// each handed to the kernel with one write(2) as it is made, so killing the client loses at
/// most the line being written. Not atomic by design: it is a stream, not a document.
final class HRVRecorder {
    let path: String
    /// How errors name it: the path given on the command line, `recordings/NAME.jsonl` for a
    /// recording started over OSC (a reply names the store, never where it lies).
    let label: String
    private let fd: Int32

    /// `exclusive`: refuse an existing file (recordings started over OSC never overwrite). Only a
    /// regular file is written: the open never waits (a pipe with no reader would) nor follows a
    /// final link.
    init(path: String, label: String? = nil, algorithm: HRVSettings.Algorithm, exclusive: Bool) throws {
        let label = label ?? path
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC)
        fd = open(path, flags, 0o644)
        guard fd >= 0 else {
            let reason = errno == EEXIST ? "it exists already" : errno == ELOOP ? "it is a link" : String(cString: strerror(errno))
            throw HRVError("cannot write the recording \(label): \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw HRVError("cannot write the recording \(label): it is not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.path = path
        self.label = label
        try write(HRVRecordFormat.header(algorithm: algorithm))
    }

    deinit { close(fd) }

    func record(_ update: HRVUpdate) throws { try write(HRVRecordFormat.record(update, date: Date())) }

    private func write(_ line: String) throws {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else {
                throw HRVError("writing the recording \(label) failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// A refused HRV request: the reason goes back to the sender as /error.
public struct HRVError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ reason: String) { description = reason }
}
