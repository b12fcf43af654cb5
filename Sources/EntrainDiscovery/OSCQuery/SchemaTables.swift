import Foundation

/// The commands and published values listed in the schema's tables (osc-schema.md's text, made
/// by each family and the router): the parts of the address space that are not values of a
/// family — `/panic`, `/session/play`, `/meter/entrainment` — with their arguments. Reading the
/// one text that documents them keeps OSCQuery and osc-schema.md from disagreeing.
enum SchemaTables {
    /// Rows of every "| address | arguments | what it does | reply |" table (commands, writable)
    /// and every "| address | arguments | when |" table (what entrain sends: readable).
    static func methods(in markdown: String) -> [OSCQueryMethod] {
        var methods: [OSCQueryMethod] = []
        var header: [String] = []
        for line in markdown.split(separator: "\n") {
            guard line.hasPrefix("|") else { header = []; continue }
            let cells = split(String(line))
            if header.isEmpty { header = cells; continue }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }
            guard header.count >= 3, header[0] == "address", header[1] == "arguments", cells.count >= 3 else { continue }
            let commands = header[2] == "what it does"
            let published = header[2] == "when"
            guard commands || published else { continue }
            // A reply without arguments of its own ("`/pong` … as above") is not something to listen to.
            let type = commands ? commandType(cells[1]) : publishedType(cells[1])
            guard let type else { continue }
            for path in addresses(cells[0]) {
                methods.append(OSCQueryMethod(path: path, type: type, access: commands ? .write : .read,
                                              description: plain(commands ? cells[2] : cells[1])))
            }
        }
        return methods
    }

    /// "`/playlist/rename`, `/playlist/delete`" → both; rows that name no address, or a pattern
    /// (`/led/gain/N`), are skipped.
    static func addresses(_ cell: String) -> [String] {
        code(cell).filter { path in
            path.hasPrefix("/") && !path.contains(" ")
                && !path.split(separator: "/").contains { segment in segment.allSatisfy { $0.isUppercase || $0 == "_" } }
        }
    }

    /// A command's arguments: "`s:name [f:crossfade]`" → "s" (optional arguments left out);
    /// a push button, "none" or "anything" → "N" (no argument needed).
    static func commandType(_ cell: String) -> String {
        let words = code(cell).flatMap { $0.split(separator: " ") }
        var tags = ""
        for word in words where !word.hasPrefix("[") {
            if let tag = word.first, "ifsdhTF".contains(tag), word.count == 1 || word.dropFirst().first == ":" { tags.append(tag) }
        }
        return tags.isEmpty ? "N" : tags
    }

    /// What entrain sends: "`f f`: peaks …" → "ff", "`f:BPM`" → "f".
    static func publishedType(_ cell: String) -> String? {
        guard let first = code(cell).first else { return nil }
        let tags = first.split(separator: " ").compactMap { word -> Character? in
            guard let tag = word.first, "ifsdhTF".contains(tag), word.count == 1 || word.dropFirst().first == ":" else { return nil }
            return tag
        }
        return tags.isEmpty ? nil : String(tags)
    }

    /// The text in backticks.
    static func code(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static func plain(_ cell: String) -> String {
        cell.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
    }

    /// A table row's cells, honouring `\|` inside a cell.
    static func split(_ line: String) -> [String] {
        var cells: [String] = [], cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped { cell.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "|" { cells.append(cell.trimmingCharacters(in: .whitespaces)); cell = ""; continue }
            cell.append(character)
        }
        return cells
    }
}
