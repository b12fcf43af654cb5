/// What any file we read may hold, so a hostile or mistaken file costs little memory and time
/// and never exhausts the stack. Every reader of the user's documents (sessions, presets,
/// playlists, last-used settings, Kessho presets, .sbg, .gnaural, .ahap) goes through these.
public enum InputLimits {
    /// The largest document read: 4 MiB. The biggest real ones are a few hundred kB (an 86,400-line
    /// SBaGen file is about 1 MB); a session of thousands of stages is well under this.
    public static let documentBytes = 4 * 1024 * 1024
    /// The deepest nesting of arrays and objects a JSON reader follows (real files nest 4 or 5 deep).
    public static let jsonDepth = 64

    /// "4 MiB", for messages.
    public static var documentBytesText: String { "\(documentBytes / (1024 * 1024)) MiB" }
}
