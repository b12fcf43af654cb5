import Foundation
import Glibc

/// Why a document could not be read, in words (not Foundation's error domains and codes).
public struct DocumentReadError: Error, CustomStringConvertible, Equatable, Sendable {
    /// How the file is named to the user: a path on the command line, a store's name over OSC.
    public let file: String
    public let reason: String
    public var description: String { "\(file): \(reason)" }
}

/// Reads a user's document whole, refusing what is not a regular file (a folder, a pipe, a device,
/// a socket: a pipe with no writer would block its reader for good) or is larger than
/// `InputLimits.documentBytes`.
public enum DocumentFile {
    /// `label` names the file in errors (default: its path).
    public static func bytes(_ url: URL, label: String? = nil) throws(DocumentReadError) -> [UInt8] {
        let name = label ?? url.path
        let fd = try openChecked(url, name)
        defer { close(fd) }
        let limit = InputLimits.documentBytes
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == EISDIR ? "is a folder, not a file" : String(cString: strerror(errno))
                throw DocumentReadError(file: name, reason: reason)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { throw tooLarge(name, nil) }  // grew while read, or a device
        }
    }

    /// The document as UTF-8 text; `fallback` decodes files that are not UTF-8 (SBaGen's Latin-1).
    public static func text(_ url: URL, label: String? = nil, fallback: String.Encoding? = nil) throws(DocumentReadError) -> String {
        let data = try bytes(url, label: label)
        if let text = String(validating: data, as: UTF8.self) { return text }
        if let fallback, let text = String(data: Data(data), encoding: fallback) { return text }
        throw DocumentReadError(file: label ?? url.path, reason: "is not UTF-8 text")
    }

    /// Whether `url` could be read (it exists, is not a folder, is within the size cap), without
    /// reading it: for checking command-line files before anything starts.
    public static func check(_ url: URL, label: String? = nil) throws(DocumentReadError) {
        close(try openChecked(url, label ?? url.path))
    }

    /// A descriptor open for reading on a regular file within the cap.
    private static func openChecked(_ url: URL, _ name: String) throws(DocumentReadError) -> Int32 {
        let fd = try openRegular(url, name)
        var info = stat()
        var problem: DocumentReadError?
        if fstat(fd, &info) != 0 {
            problem = DocumentReadError(file: name, reason: String(cString: strerror(errno)))
        } else if Int(info.st_size) > InputLimits.documentBytes {
            problem = tooLarge(name, Int(info.st_size))
        }
        if let problem {
            close(fd)
            throw problem
        }
        return fd
    }

    /// A descriptor open for reading on `url`, refused unless it is a regular file. The open never
    /// waits (O_NONBLOCK: opening a pipe with no writer would), and the type is read from the open
    /// descriptor, so a file swapped for a pipe after a check is still refused.
    public static func openRegular(_ url: URL, _ name: String) throws(DocumentReadError) -> Int32 {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DocumentReadError(file: name, reason: openFailure(errno)) }
        var info = stat()
        let reason: String?
        if fstat(fd, &info) != 0 {
            reason = String(cString: strerror(errno))
        } else {
            switch info.st_mode & S_IFMT {
            case S_IFREG: reason = nil
            case S_IFDIR: reason = "is a folder, not a file"
            case S_IFIFO: reason = "is a pipe, not a file (only regular files are read)"
            case S_IFSOCK: reason = "is a socket, not a file (only regular files are read)"
            default: reason = "is a device, not a file (only regular files are read)"
            }
        }
        if let reason {
            close(fd)
            throw DocumentReadError(file: name, reason: reason)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private static func openFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case ENOTDIR: "no such file (a part of the path is not a folder)"
        default: String(cString: strerror(code))
        }
    }

    private static func tooLarge(_ name: String, _ size: Int?) -> DocumentReadError {
        let actual = size.map { String(format: " (%.1f MiB)", Double($0) / 1_048_576) } ?? ""
        return DocumentReadError(file: name, reason: "too large\(actual): files of at most \(InputLimits.documentBytesText) are read")
    }
}
