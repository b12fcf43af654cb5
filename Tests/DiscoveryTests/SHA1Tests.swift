@testable import EntrainDiscovery
import XCTest

/// Our SHA-1 against the test vectors of RFC 3174 §7.3, and the handshake's accept value
/// against RFC 6455's own example (§1.3).
final class SHA1Tests: XCTestCase {
    func hex(_ text: String, times: Int = 1) -> String {
        let bytes = Array(repeating: Array(text.utf8), count: times).flatMap { $0 }
        return SHA1.digest(bytes).map { String(format: "%02X", $0) }.joined()
    }

    func testTheVectorsOfRFC3174() {
        XCTAssertEqual(hex("abc"), "A9993E364706816ABA3E25717850C26C9CD0D89D")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "84983E441C3BD26EBAAE4AA1F95129E5E54670F1")
        XCTAssertEqual(hex("a", times: 1_000_000), "34AA973CD4C4DAA4F61EEB2BDBAD27316534016F")
        XCTAssertEqual(hex("0123456701234567012345670123456701234567012345670123456701234567", times: 10), "DEA356A2CDDD90C7A7ECEDC5EBB563934F460452")
    }

    /// Lengths around the padding's edges: 55 bytes fit one block with the length, 56 do not.
    func testTheEmptyMessageAndBlockEdges() {
        XCTAssertEqual(hex(""), "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
        XCTAssertEqual(hex("The quick brown fox jumps over the lazy dog"), "2FD4E1C67A2D28FCED849EE1BB76E7391B93EB12")
        XCTAssertEqual(hex("a", times: 55), "C1C8BBDC22796E28C0E15163D20899B65621D65A")
        XCTAssertEqual(hex("a", times: 56), "C2DB330F6083854C99D4B5BFB6E8F29F201BE699")
        XCTAssertEqual(hex("a", times: 64), "0098BA824B5C16427BD7A1122A5A442A25EC644D")
    }

    func testTheHandshakeExampleOfRFC6455() {
        XCTAssertEqual(WebSocketHandshake.accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
