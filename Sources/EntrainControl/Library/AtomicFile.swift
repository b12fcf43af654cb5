import Foundation

/// Writes a file so that a crash never leaves it half-written: a temporary file beside it,
/// fsync, rename over the target, fsync of the directory.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw LibraryError.cannotWrite(url.path, String(cString: strerror(errno))) }
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
            throw LibraryError.cannotWrite(url.path, reason)
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

    public var description: String {
        switch self {
        case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
        case .badName(let name): "'\(name)' is not a usable name (1–64 letters, digits, spaces, - _ . ( ); not starting with '.')"
        case .notFound(let kind, let name): "no \(kind) named '\(name)'"
        case .exists(let kind, let name): "a \(kind) named '\(name)' exists already"
        case .badFile(let path, let why): "\(path): \(why)"
        case .badIndex(let index, let count): "item \(index) does not exist (the playlist has \(count), numbered from 1)"
        }
    }
}
