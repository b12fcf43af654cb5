import EntrainFiles
import Foundation

/// Writes a file so that a crash never leaves it half-written: a temporary file beside it,
/// fsync, rename over the target, fsync of the directory. Temporary files left in the folder
/// by writers that were killed (SIGKILL, power cut) are removed on the way.
public enum AtomicFile {
    /// `label` names the file in errors (default: its path).
    public static func write(_ data: Data, to url: URL, label: String? = nil) throws {
        let name = label ?? url.path
        let directory = url.deletingLastPathComponent()
        do { try Folder.create(directory) } catch {
            throw LibraryError.cannotWrite(name, "cannot create its folder (\(error.reason))")
        }
        StaleTemporaries.sweep(directory, suffix: "tmp")
        let temporary = StaleTemporaries.name(for: url, suffix: "tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LibraryError.cannotWrite(name, String(cString: strerror(errno))) }
        var ok = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw LibraryError.cannotWrite(name, reason)
        }
        let dir = open(directory.path, O_RDONLY)
        if dir >= 0 { fsync(dir); close(dir) }
    }
}

public enum LibraryError: Error, CustomStringConvertible, Equatable {
    case cannotWrite(String, String)
    case badName(String)
    case notFound(String, String)
    case exists(String, String)
    case badFile(String, String)
    case badIndex(Int, Int)
    /// A document that resolves outside its folder (a link leading out).
    case outside(String, String)
    case unreadable(DocumentReadError)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
        case .badName(let name): "'\(name)' is not a usable name (1–64 letters, digits, spaces, - _ . ( ); not starting with '.')"
        case .notFound(let kind, let name): "no \(kind) named '\(name)'"
        case .exists(let kind, let name): "a \(kind) named '\(name)' exists already"
        case .badFile(let path, let why): "\(path): \(why)"
        case .badIndex(let index, let count): "item \(index) does not exist (the playlist has \(count), numbered from 1)"
        case .outside(let kind, let file): "\(file) leads outside the \(kind) folder (a link?); refused"
        case .unreadable(let problem): "\(problem)"
        }
    }
}
