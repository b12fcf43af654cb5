/// What any file we read may hold, so a hostile or mistaken file costs little memory and time
/// and never exhausts the stack. Every reader of the user's documents (sessions, presets,
/// playlists, last-used settings, Kessho presets, .sbg, .gnaural, .ahap) goes through these.
public enum InputLimits {
    /// The largest document read: 16 MiB (parsed in about half a second). Presets and patterns are
    /// a few kB and an 86,400-line SBaGen file about 1 MB, but sessions are verbose: importing an
    /// 8,640-line SBaGen file writes 6.5 MB of JSON, and that session must load again.
    public static let documentBytes = 16 * 1024 * 1024
    /// The deepest nesting of arrays and objects a JSON reader follows (real files nest 4 or 5 deep).
    public static let jsonDepth = 64

    /// "4 MiB", for messages.
    public static var documentBytesText: String { "\(documentBytes / (1024 * 1024)) MiB" }
}
