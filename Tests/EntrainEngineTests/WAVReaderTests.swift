import EntrainEngine
import Foundation
import XCTest

/// WAVFile must decode every supported encoding and reject every malformed file with a
/// WAVReadError, never trapping and never returning NaN.
final class WAVReaderTests: XCTestCase {
    // MARK: building files by hand

    static func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func chunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        Array(id.utf8) + le(declaredSize ?? body.count, 4) + body + (body.count % 2 == 1 ? [0] : [])
    }

    static func fmt(tag: Int = 1, channels: Int = 1, rate: Int = 48_000, bits: Int = 16, blockAlign: Int? = nil) -> [UInt8] {
        let align = blockAlign ?? channels * ((bits + 7) / 8)
        return le(tag, 2) + le(channels, 2) + le(rate, 4) + le(rate * align, 4) + le(align, 2) + le(bits, 2)
    }

    static func extensible(subformat: Int, channels: Int = 1, bits: Int, validBits: Int? = nil) -> [UInt8] {
        let guidSuffix: [UInt8] = [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
        return fmt(tag: 0xFFFE, channels: channels, bits: bits) + le(22, 2) + le(validBits ?? bits, 2)
            + le(0, 4) + le(subformat, 2) + guidSuffix
    }

    static func riff(_ chunks: [UInt8]...) -> Data {
        let body = chunks.reduce([], +)
        return Data(Array("RIFF".utf8) + le(4 + body.count, 4) + Array("WAVE".utf8) + body)
    }

    func assertThrows(_ data: Data, _ expected: WAVReadError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try WAVFile(data: data), file: file, line: line) { error in
            XCTAssertEqual(error as? WAVReadError, expected, file: file, line: line)
            // Every error explains itself in words.
            XCTAssertFalse(String(describing: error).isEmpty, file: file, line: line)
        }
    }

    // MARK: supported encodings

    func testIntegerWidthsDecodeToTheSameValues() throws {
        // -0.5 and +0.25 in each width.
        let cases: [(bits: Int, bytes: [UInt8])] = [
            (8, [64, 160]),
            (16, Self.le(-16384, 2) + Self.le(8192, 2)),
            (24, Self.le(-4_194_304, 3) + Self.le(2_097_152, 3)),
            (32, Self.le(-1_073_741_824, 4) + Self.le(536_870_912, 4)),
        ]
        for (bits, bytes) in cases {
            let file = try WAVFile(data: Self.riff(Self.chunk("fmt ", Self.fmt(bits: bits)), Self.chunk("data", bytes)))
            XCTAssertEqual(file.samples, [[-0.5, 0.25]], "\(bits)-bit")
            XCTAssertEqual(file.bitsPerSample, bits)
            XCTAssertEqual(file.formatTag, 1)
        }
    }

    func testFloat64AndInterleavedChannels() throws {
        let values: [Double] = [0.5, -0.25, 0.125, 1.5]  // two frames of two channels; floats may exceed 1
        let bytes = values.flatMap { Self.le(Int(truncatingIfNeeded: $0.bitPattern), 8) }
        let file = try WAVFile(data: Self.riff(Self.chunk("fmt ", Self.fmt(tag: 3, channels: 2, bits: 64)), Self.chunk("data", bytes)))
        XCTAssertEqual(file.channels, 2)
        XCTAssertEqual(file.samples, [[0.5, 0.125], [-0.25, 1.5]])
    }

    func testExtensibleFloatAndPCMSubformats() throws {
        let float = Self.le(Int(Float(0.75).bitPattern), 4)
        let f = try WAVFile(data: Self.riff(Self.chunk("fmt ", Self.extensible(subformat: 3, bits: 32)), Self.chunk("data", float)))
        XCTAssertEqual(f.formatTag, 3)
        XCTAssertEqual(f.samples, [[0.75]])
        // 24 valid bits left-justified in a 32-bit container read as 32-bit integers.
        let pcm = Self.le(0x4000_0000, 4)
        let p = try WAVFile(data: Self.riff(Self.chunk("fmt ", Self.extensible(subformat: 1, bits: 32, validBits: 24)), Self.chunk("data", pcm)))
        XCTAssertEqual(p.formatTag, 1)
        XCTAssertEqual(p.samples, [[0.5]])
    }

    /// Unknown chunks are skipped (odd sizes padded), data may come in any order after fmt.
    func testSkipsOtherChunksAndAllowsAMissingFinalPadByte() throws {
        var bytes = [UInt8](Self.riff(Self.chunk("LIST", [1, 2, 3]), Self.chunk("fmt ", Self.fmt(bits: 8)), Self.chunk("data", [128, 255, 0])))
        bytes.removeLast()  // the pad byte after the odd-sized data chunk
        let file = try WAVFile(data: Data(bytes))
        XCTAssertEqual(file.samples, [[0, 127.0 / 128, -1]])
    }

    // MARK: malformed files

    func testNotAWAVFile() {
        assertThrows(Data(), .notWAV)
        assertThrows(Data("hello world, not audio".utf8), .notWAV)
        assertThrows(Data(Array("RIFF".utf8) + Self.le(4, 4) + Array("AVI ".utf8)), .notWAV)
    }

    func testTruncatedHeaders() {
        assertThrows(Data(Array("RIFF".utf8) + [0, 0]), .truncated("RIFF header"))
        let header = [UInt8](Self.riff(Self.chunk("fmt ", Self.fmt())))
        assertThrows(Data(header + Array("da".utf8)), .truncated("chunk header at byte 36"))
        // The fmt chunk cut in half.
        assertThrows(Data(header.prefix(28)), .chunkPastEnd(id: "fmt ", size: 16, available: 8))
    }

    func testChunkSizesPastTheEnd() {
        let fmt = Self.chunk("fmt ", Self.fmt())
        assertThrows(Self.riff(fmt, Self.chunk("data", [0, 0], declaredSize: 1000)), .chunkPastEnd(id: "data", size: 1000, available: 2))
        // 0xFFFFFFFF, as streaming writers leave it, is also refused rather than read past the end.
        assertThrows(Self.riff(fmt, Self.chunk("data", [0, 0], declaredSize: 0xFFFF_FFFF)),
                     .chunkPastEnd(id: "data", size: 0xFFFF_FFFF, available: 2))
        assertThrows(Self.riff(Self.chunk("junk", [], declaredSize: 40), fmt), .chunkPastEnd(id: "junk", size: 40, available: 24))
    }

    func testMissingChunks() {
        assertThrows(Self.riff(Self.chunk("data", [0, 0])), .missingChunk("fmt "))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt())), .missingChunk("data"))
    }

    func testImpossibleFormats() {
        let data = Self.chunk("data", [0, 0])
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(channels: 0, blockAlign: 2)), data), .invalidFormat("zero channels"))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(rate: 0)), data), .invalidFormat("zero sample rate"))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(bits: 0, blockAlign: 2)), data), .invalidFormat("zero bits per sample"))
        assertThrows(Self.riff(Self.chunk("fmt ", Array(Self.fmt().prefix(14))), data),
                     .invalidFormat("the fmt chunk is 14 bytes, at least 16 are needed"))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(channels: 2, blockAlign: 2)), data),
                     .invalidFormat("block align 2 does not match 2 channel(s) of 2 byte(s)"))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.extensible(subformat: 1, bits: 16, validBits: 20)), data),
                     .invalidFormat("20 valid bits in a 16-bit container"))
        var badGUID = Self.extensible(subformat: 1, bits: 16)
        badGUID[39] ^= 0xFF
        assertThrows(Self.riff(Self.chunk("fmt ", badGUID), data),
                     .invalidFormat("WAVE_FORMAT_EXTENSIBLE with an unknown subformat GUID"))
        assertThrows(Self.riff(Self.chunk("fmt ", Array(Self.extensible(subformat: 1, bits: 16).prefix(24))), data),
                     .invalidFormat("WAVE_FORMAT_EXTENSIBLE needs a 40-byte fmt chunk with a 22-byte extension"))
    }

    func testUnsupportedEncodings() {
        let data = Self.chunk("data", [0, 0, 0, 0])
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(tag: 2, bits: 4, blockAlign: 1)), data), .unsupportedFormat(tag: 2, bitsPerSample: 4))  // ADPCM
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(tag: 3, bits: 16)), data), .unsupportedFormat(tag: 3, bitsPerSample: 16))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(bits: 48)), Self.chunk("data", [UInt8](repeating: 0, count: 6))),
                     .unsupportedFormat(tag: 1, bitsPerSample: 48))
        assertThrows(Self.riff(Self.chunk("fmt ", Self.extensible(subformat: 7, bits: 8)), data), .unsupportedFormat(tag: 7, bitsPerSample: 8))
    }

    func testPartialFrame() {
        assertThrows(Self.riff(Self.chunk("fmt ", Self.fmt(channels: 2, bits: 24)), Self.chunk("data", [UInt8](repeating: 0, count: 8))),
                     .partialFrame(dataBytes: 8, frameBytes: 6))
    }

    func testNonFiniteFloatsAreRefused() {
        let fmt32 = Self.chunk("fmt ", Self.fmt(tag: 3, channels: 2, bits: 32))
        let nan = Self.le(Int(Float.nan.bitPattern), 4), zero = Self.le(0, 4)
        assertThrows(Self.riff(fmt32, Self.chunk("data", zero + zero + zero + nan)), .nonFiniteSample(frame: 1, channel: 1))
        // A finite double too large for Float.
        let fmt64 = Self.chunk("fmt ", Self.fmt(tag: 3, bits: 64))
        assertThrows(Self.riff(fmt64, Self.chunk("data", Self.le(Int(truncatingIfNeeded: (1e300).bitPattern), 8))),
                     .nonFiniteSample(frame: 0, channel: 0))
    }

    /// No input may trap: every prefix and many single-byte corruptions of a valid file either
    /// decode to finite samples or throw.
    func testCorruptedFilesNeverTrap() {
        let valid = [UInt8](Self.riff(Self.chunk("fmt ", Self.fmt(tag: 3, channels: 2, bits: 32)),
                                      Self.chunk("data", (0..<16).flatMap { Self.le(Int((Float($0) / 16).bitPattern), 4) })))
        var variants = (0..<valid.count).map { Array(valid.prefix($0)) }
        for position in 0..<valid.count {
            for value: UInt8 in [0, 1, 0x7F, 0xFF] {
                var copy = valid
                copy[position] = value
                variants.append(copy)
            }
        }
        for bytes in variants {
            if let file = try? WAVFile(data: Data(bytes)) {
                XCTAssert(file.samples.allSatisfy { $0.allSatisfy(\.isFinite) })
            }
        }
    }
}
