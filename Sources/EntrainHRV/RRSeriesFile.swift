import Foundation

/// A series of RR intervals from a file's text: plain text (one interval in ms per line; blank
/// lines and lines starting with # skipped) or one of our recordings (JSON Lines: each
/// record's `rr` list, header lines skipped). Problems name the file, line and column. (Reading
/// the file, with the client's size cap and errors, is the caller's.)
public enum RRSeriesFile {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String, file: String) throws -> [Double] {
        var out: [Double] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let body = line.dropFirst(indent).trimmingCharacters(in: .whitespaces)
            let place = "\(file):\(index + 1):\(indent + 1)"
            if body.isEmpty || body.hasPrefix("#") { continue }
            if body.hasPrefix("{") {
                out += try record(body, place: place)
                continue
            }
            guard let v = Double(body), v.isFinite else {
                throw Problem(description: "\(place): expected an RR interval in milliseconds, got '\(body.prefix(40))'")
            }
            out.append(v)
        }
        return out
    }

    /// A recording's line: its `rr` numbers (none for a header or footer).
    static func record(_ body: String, place: String) throws -> [Double] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            throw Problem(description: "\(place): not a JSON object")
        }
        guard let rr = object["rr"] else {
            if object["type"] is String { return [] }
            throw Problem(description: "\(place): a record without \"rr\"")
        }
        guard let list = rr as? [Any] else { throw Problem(description: "\(place): \"rr\" must be a list of numbers") }
        return try list.map { value in
            guard !(value is Bool), let n = value as? NSNumber, n.doubleValue.isFinite else {
                throw Problem(description: "\(place): \"rr\" must be a list of numbers")
            }
            return n.doubleValue
        }
    }
}
