import EntrainFiles
import Foundation
import Glibc

/// Where a render file's bytes go: a temporary file beside the target (`.NAME.PID.partial`),
/// fsynced and renamed over the target only by `commit`, so an error or an interruption leaves
/// the target as it was (`abandon`, or the writer's deinit, removes the temporary file; ones
/// left by killed renders are swept by the next render into the folder). A target that exists
/// and is not a regular file (/dev/null, a FIFO, /dev/stdout) is written to directly.
final class AtomicTarget {
    let url: URL
    /// nil when writing straight into a device or pipe.
    let temporaryURL: URL?
    let descriptor: Int32
    private(set) var finished = false

    init(url: URL) throws {
        self.url = url
        var info = stat()
        if stat(url.path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR { throw WAVError.cannotCreate(url.path, reason: "it is a folder") }
            temporaryURL = nil
            descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        } else {
            StaleTemporaries.sweep(url.deletingLastPathComponent(), suffix: "partial")
            let temporary = StaleTemporaries.name(for: url, suffix: "partial")
            temporaryURL = temporary
            descriptor = open(temporary.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw WAVError.cannotCreate(url.path, reason: String(cString: strerror(errno))) }
    }

    deinit { if !finished { abandon() } }

    /// Close and remove the temporary file: the target stays as it was.
    func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        if let temporaryURL { unlink(temporaryURL.path) }
    }

    /// An error writing here, in words (and whether the target was spared).
    func failure(_ reason: String = String(cString: strerror(errno))) -> WAVError {
        WAVError.cannotCreate(url.path, reason: reason, replacing: temporaryURL != nil)
    }

    /// `last` (rewriting a header, say) then fsync, close and rename into place; on any error
    /// the temporary file goes and the target stays as it was.
    func commit(_ last: () throws -> Void = {}) throws {
        guard let temporaryURL else {  // a device or pipe: nothing to rewrite or rename
            try last()
            finished = true
            guard close(descriptor) == 0 else { throw failure() }
            return
        }
        do {
            try last()
            guard fsync(descriptor) == 0 else { throw failure() }
        } catch {
            abandon()
            throw error
        }
        finished = true
        close(descriptor)
        guard rename(temporaryURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryURL.path)
            throw WAVError.cannotCreate(url.path, reason: reason)
        }
    }
}
