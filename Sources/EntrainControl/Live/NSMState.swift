import EntrainFiles
import Foundation

/// What a session manager's save keeps of a run, in the folder `/nsm/client/open` names: every
/// family's values in `values.json` (the preset format, so a preset can be made of it) and the
/// rest in `state.json`: the session file, whether it plays and where, the presets in use and
/// the light set-up (LED ports, haptic CV ports, the DMX, MIDI and pixel rigs).
public struct NSMState: Codable, Equatable, Sendable {
    public static let currentFormat = "entrain-nsm-state"
    public var format = NSMState.currentFormat
    public var version = 1
    public var session: SessionPlace?
    public var preset: String?
    public var ambientPreset: String?
    public var ledPorts: Int
    public var hapticCV: Bool
    /// The DMX and MIDI command-line options, as arguments (nil in files from before them).
    public var dmx: [String]?
    public var midi: [String]?
    /// The pixel rig file (`--pixels`), as an absolute path (nil: none, or a file from before pixels).
    public var pixels: String?

    public struct SessionPlace: Codable, Equatable, Sendable {
        public var file: String
        /// idle, playing, paused or finished (the transport's states).
        public var state: String
        /// Seconds from the session's start.
        public var position: Double
        public init(file: String, state: String, position: Double) {
            self.file = file
            self.state = state
            self.position = position
        }
    }

    public init(session: SessionPlace? = nil, preset: String? = nil, ambientPreset: String? = nil, ledPorts: Int = 1, hapticCV: Bool = false,
                dmx: [String]? = nil, midi: [String]? = nil, pixels: String? = nil) {
        self.dmx = dmx
        self.pixels = pixels
        self.midi = midi
        self.session = session
        self.preset = preset
        self.ambientPreset = ambientPreset
        self.ledPorts = ledPorts
        self.hapticCV = hapticCV
    }
}

/// The two files under the path the manager gives, written atomically.
public struct NSMStore: Sendable {
    public let folder: URL
    public init(path: String) { folder = URL(fileURLWithPath: path, isDirectory: true) }

    var stateURL: URL { folder.appendingPathComponent("state.json") }
    var valuesURL: URL { folder.appendingPathComponent("values.json") }

    public func save(_ state: NSMState, values: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(Data(values.utf8), to: valuesURL)
        try AtomicFile.write(try encoder.encode(state) + Data("\n".utf8), to: stateURL)
    }

    /// The saved state, or nil when nothing was saved here yet.
    public func loadState() throws -> NSMState? {
        guard FileManager.default.fileExists(atPath: stateURL.path) else { return nil }
        let bytes = try DocumentFile.bytes(stateURL)
        let state: NSMState
        do { state = try JSONDecoder().decode(NSMState.self, from: Data(bytes)) } catch {
            throw NSMStateError(file: stateURL.path, reason: "unreadable (\(error))")
        }
        guard state.format == NSMState.currentFormat, state.version == 1 else {
            throw NSMStateError(file: stateURL.path, reason: "not an \(NSMState.currentFormat) version 1 file")
        }
        return state
    }

    /// The saved values document (preset format), or nil.
    public func loadValues() throws -> (text: String, label: String)? {
        guard FileManager.default.fileExists(atPath: valuesURL.path) else { return nil }
        return (String(decoding: try DocumentFile.bytes(valuesURL), as: UTF8.self), valuesURL.path)
    }
}

public struct NSMStateError: Error, CustomStringConvertible {
    public let file: String
    public let reason: String
    public var description: String { "\(file): \(reason)" }
}
