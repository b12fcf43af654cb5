import Foundation

/// One thing wrong (or doubtful) in an .ahap file, where it is written.
/// Printed like a compiler message so editors can jump to it: `file:line:column: error: message`.
public struct AHAPProblem: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    /// Warnings (a clamped value, an ignored key) do not stop a pattern from loading.
    public let isWarning: Bool

    public init(file: String, line: Int, column: Int, message: String, isWarning: Bool) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.isWarning = isWarning
    }

    /// A problem with the whole file (line 0) is `file: error: …`.
    public var description: String {
        "\(file)\(line > 0 ? ":\(line):\(column)" : ""): \(isWarning ? "warning" : "error"): \(message)"
    }
}

/// A pattern that cannot be played; carries every problem found, warnings included, in file order.
public struct AHAPLoadError: Error, CustomStringConvertible, Sendable {
    public let problems: [AHAPProblem]
    public var errors: [AHAPProblem] { problems.filter { !$0.isWarning } }
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
