import Foundation

/// XML that Foundation's parser on Linux crashes on (a trap in the process, not an error): a
/// processing instruction without data (`<?x?>`) and a DTD with a notation or unparsed entity.
/// A Gnaural file has neither a DOCTYPE nor processing instructions besides its `<?xml …?>`
/// declaration, so the reader refuses both, with their position, before the parser sees them.
enum XMLPreflight {
    /// The offset and a description of the first construct we do not read, or nil.
    static func unsupportedConstruct(_ bytes: [UInt8]) -> (offset: Int, message: String)? {
        let declarationEnd = xmlDeclarationEnd(bytes)
        if starts(bytes, at: 0, with: "<?"), declarationEnd == 0 {
            return (0, "the file must begin with an XML declaration such as <?xml version=\"1.0\"?> or with <schedule>")
        }
        var i = declarationEnd
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                if bytes[i + 1] == UInt8(ascii: "?") {
                    return (i, "processing instructions (<?…?>) are not read: a Gnaural file has none besides its <?xml …?> declaration")
                }
                if bytes[i + 1] == UInt8(ascii: "!"), starts(bytes, at: i + 2, with: "DOCTYPE") {
                    return (i, "document type declarations (<!DOCTYPE …>) are not read: a Gnaural file has none")
                }
            }
            i += 1
        }
        return nil
    }

    /// Where the leading `<?xml version=… ?>` declaration ends (0 without a well-formed one:
    /// the parser crashes on `<?xml?>` too).
    private static func xmlDeclarationEnd(_ bytes: [UInt8]) -> Int {
        guard starts(bytes, at: 0, with: "<?xml"), bytes.count > 5, [9, 10, 13, 32].contains(bytes[5]) else { return 0 }
        var i = 6
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "?"), bytes[i + 1] == UInt8(ascii: ">") {
                let declaration = String(decoding: bytes[6..<i], as: UTF8.self)
                let ok = declaration.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("version")
                    && declaration.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " \t\r\n=\"'.-_".contains($0)) }
                return ok ? i + 2 : 0
            }
            i += 1
        }
        return 0
    }

    private static func starts(_ bytes: [UInt8], at offset: Int, with text: String) -> Bool {
        let pattern = Array(text.utf8)
        guard offset + pattern.count <= bytes.count else { return false }
        return Array(bytes[offset..<offset + pattern.count]) == pattern
    }
}
