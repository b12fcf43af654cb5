import EntrainEngine
import Foundation

/// The user's presets and playlists, under one data directory.
public struct Library: Sendable {
    public let presets: Presets
    public let playlists: Playlists

    public init(dataDirectory: URL = NamedStore.dataDirectory()) {
        presets = Presets(dataDirectory: dataDirectory)
        playlists = Playlists(dataDirectory: dataDirectory)
    }
}
