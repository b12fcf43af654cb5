import Foundation

/// A TouchOSC layout read back by tosclib (PyPI, installed by scripts/install-python-tools.sh
/// under .build/python) through scripts/tosc-dump.py: every control's OSC messages.
public struct TouchOSCMessage: Decodable {
    public struct Partial: Decodable {
        public let type: String, conversion: String, value: String?, scaleMin: String?, scaleMax: String?
    }
    public let type: String, name: String?, page: String?
    public let send: Bool, receive: Bool
    public let trigger: String?, condition: String?
    public let path: [Partial], arguments: [Partial]

    /// The path when it is one constant (every path we write is).
    public var constantPath: String? { path.count == 1 && path[0].type == "CONSTANT" ? path[0].value : nil }

    /// Why the layout cannot be read back here, or nil.
    public static var unavailable: String? {
        FileManager.default.isExecutableFile(atPath: python.path) ? nil
            : "tosclib is not set up (scripts/install-python-tools.sh, which make test runs)"
    }

    static var python: URL { EntrainBinary.packageRoot.appendingPathComponent(".build/python/bin/python") }

    public static func read(_ file: URL) throws -> [TouchOSCMessage] {
        let process = Process(), out = Pipe(), err = Pipe()
        process.executableURL = python
        process.arguments = [EntrainBinary.packageRoot.appendingPathComponent("scripts/tosc-dump.py").path, file.path]
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let complaint = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError.timeout("tosc-dump failed: \(String(decoding: complaint, as: UTF8.self).suffix(400))")
        }
        return try JSONDecoder().decode([TouchOSCMessage].self, from: data)
    }
}
