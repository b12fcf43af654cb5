/// Text for man(7) pages: escaping, and the small Markdown subset our docs use (headings,
/// paragraphs, bullets, tables, `code`, **bold**) turned into man macros.
enum Roff {
    /// Escapes backslashes and hyphens; a line may not start with a control character.
    static func escape(_ text: String) -> String { guardedLineStart(escapeInline(Substring(text))) }

    /// A line starting with `.` or `'` would be read as a macro.
    private static func guardedLineStart(_ text: String) -> String {
        text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }

    /// Inline Markdown: `code` and **strong** in bold, the rest escaped.
    static func inline(_ markdown: String) -> String {
        var out = ""
        var bold = false
        var rest = Substring(markdown)
        while let index = rest.firstIndex(where: { $0 == "`" || $0 == "*" }) {
            out += escapeInline(rest[..<index])
            if rest[index] == "`" {
                rest = rest[rest.index(after: index)...]
                let end = rest.firstIndex(of: "`") ?? rest.endIndex
                out += "\\fB" + escapeInline(rest[..<end]) + "\\fR"
                rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
            } else if rest[index...].hasPrefix("**") {
                out += bold ? "\\fR" : "\\fB"
                bold.toggle()
                rest = rest[rest.index(index, offsetBy: 2)...]
            } else {
                out += "*"
                rest = rest[rest.index(after: index)...]
            }
        }
        out += escapeInline(rest)
        if bold { out += "\\fR" }
        return guardedLineStart(out)
    }

    private static func escapeInline(_ text: Substring) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }

    /// A Markdown document as man macros: `#` is the title (dropped: the page has its own),
    /// `##` a section, `###` a subsection, tables become tagged paragraphs.
    static func fromMarkdown(_ markdown: String) -> String {
        var out: [String] = []
        var header: [String] = []
        var paragraph: [String] = []
        var inBullet = false
        func flush() {
            if !paragraph.isEmpty { out += [".PP", inline(paragraph.joined(separator: " "))] }
            paragraph = []
        }
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { flush(); header = []; inBullet = false; continue }
            if line.hasPrefix("# ") { flush(); continue }
            if line.hasPrefix("## ") { flush(); out += [".SH \"\(String(line.dropFirst(3)).uppercased())\""]; continue }
            if line.hasPrefix("### ") || line.hasPrefix("#### ") {
                flush(); out += [".SS \"\(line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces))\""]; continue
            }
            if line.hasPrefix("|") {
                flush()
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }  // the rule under a header
                if header.isEmpty { header = cells; continue }
                out += [".TP", inline(cells.first ?? "")]
                let described = zip(header.dropFirst(), cells.dropFirst()).filter { !$0.1.isEmpty && $0.1 != "—" }
                if !described.isEmpty { out.append(described.map { inline("\($0.0): \($0.1)") }.joined(separator: "\n.br\n")) }
                continue
            }
            if line.hasPrefix("- ") || line.hasPrefix("* ") {
                flush()
                out += [".IP \\(bu 2", inline(String(line.dropFirst(2)))]
                inBullet = true
                continue
            }
            if inBullet, raw.first == " " {  // a bullet's continuation line
                out[out.count - 1] += " " + inline(line)
                continue
            }
            inBullet = false
            paragraph.append(line)
        }
        flush()
        return out.joined(separator: "\n")
    }
}
