import Foundation

/// A series of RR intervals read from a file: plain text (one interval in ms per line; blank
/// lines and lines starting with # skipped) or one of our recordings (JSON Lines: each
/// record's `rr` list, header lines skipped). Problems name the file, line and column.
public enum RRSeriesFile {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Larger files are refused (a day of beats is about 1 MB of text).
    public static let maximumBytes = 64 << 20

    public static func read(_ path: String) throws -> [Double] {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else { throw Problem(description: "\(path): \(size) bytes is more than the \(maximumBytes >> 20) MB an RR file may be") }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw Problem(description: "\(path): cannot read it (\(error.localizedDescription))") }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(path):1:1: not UTF-8 text") }
        return try parse(text, file: path)
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
