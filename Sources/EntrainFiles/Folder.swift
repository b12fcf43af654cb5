import Foundation
import Glibc

/// Making a folder, with a failure said in words ("cannot create the folder stems/: permission
/// denied"), never Foundation's error domain and code.
public enum Folder {
    public struct CannotCreate: Error, CustomStringConvertible, Sendable {
        public let folder: String
        public let reason: String
        public var description: String { "cannot create the folder \(folder): \(reason)" }
    }

    /// Creates `url` and its parents if missing; `label` names it in the error (default: its path).
    public static func create(_ url: URL, label: String? = nil) throws(CannotCreate) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CannotCreate(folder: label ?? url.path, reason: reason(error))
        }
    }

    /// The names (without the extension) of the files with one of `extensions` directly in
    /// `folders`, hidden ones left out, once each, in the order a person sorts them (`take 2`
    /// before `take 10`). A folder that cannot be read lists nothing.
    public static func names(in folders: [URL], extensions: [String]) -> [String] {
        var found = Set<String>()
        for folder in folders {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !file.hasPrefix(".") {
                if let ext = extensions.first(where: { file.hasSuffix("." + $0) }) { found.insert(String(file.dropLast(ext.count + 1))) }
            }
        }
        return found.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// The operating system's reason behind a Foundation file error, in words.
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        switch ns.code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or folder"
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteFileExistsError: return "a file of that name is in the way"
        case NSFileWriteVolumeReadOnlyError: return "the file system is read-only"
        default: return "the system refused (\(ns.code))"
        }
    }
}
