import EntrainAddressSpace
import Foundation

/// The lists of stored things a command's argument names: the router has the stores each is
/// read from (`OSCRouter.init` provides them to the address space), OSCQuery offers them as the
/// argument's `VALS`, so the control page's menus show what exists now.
extension Catalog {
    public static let presets = Catalog("presets")
    public static let playlists = Catalog("playlists")
    public static let sessions = Catalog("sessions")
    public static let patterns = Catalog("patterns")
    public static let ambientPresets = Catalog("ambient presets")
}

extension ConfinedFiles {
    /// The names (without the extension) of the files directly in the directories, sorted, once
    /// each: what `resolve` would find.
    public func names() -> [String] {
        var found = Set<String>()
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files where !file.hasPrefix(".") && file.hasSuffix("." + fileExtension) {
                found.insert(String(file.dropLast(fileExtension.count + 1)))
            }
        }
        return found.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }
}
