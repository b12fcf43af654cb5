/// Where a file stops being UTF-8, as a line and column for the error. Foundation's XML parser
/// traps (a crash, not an error) on an element name that is not UTF-8, so the Gnaural reader
/// checks first.
enum UTF8Check {
    /// The first byte that does not start a valid UTF-8 sequence, or nil when all is valid.
    static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Line and column (from 1) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, start = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 10 {
            line += 1
            start = i + 1
        }
        return (line, offset - start + 1)
    }

    /// An XML prolog naming its encoding (then the parser converts, whatever the bytes).
    static func declaresEncoding(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return false }
        return head[..<end.lowerBound].contains("encoding=")
    }
}
