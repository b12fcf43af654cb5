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
    /// The most values (numbers, strings, arrays, objects, …) one JSON document may hold. Each costs
    /// tens of bytes once parsed, so this bounds a reader's memory near 100 MB whatever the file;
    /// the most verbose real files (a 16 MiB imported session) hold under 900,000.
    public static let jsonValues = 1_000_000
    /// The most stages a session holds: a day of one-second stages (86,400) fits; more is refused
    /// before anything is built from them.
    public static let sessionStages = 100_000

    /// "1,000,000 values", for messages.
    public static var jsonValuesText: String { "more than \(grouped(jsonValues)) values in one document (a limit against hostile files)" }

    /// A count with thousands separators, the same on every locale: "86,400".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// "16 MiB", for messages.
    public static var documentBytesText: String { "\(documentBytes / (1024 * 1024)) MiB" }
}
