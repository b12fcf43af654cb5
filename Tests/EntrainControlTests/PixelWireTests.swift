@testable import EntrainControl
import TestSupport
import XCTest

/// The pixel outputs' packets, read back by the tests' own DDP display and DMX decoders
/// (written from the protocol documents), and the rig file's rules.
final class PixelWireTests: XCTestCase {
    func spec(_ json: String) throws -> PixelOutputSpec { try XCTUnwrap(PixelRig.parse("[\(json)]").first) }

    func testDDPCutsAFrameAtPixelBoundariesAndPushesTheLastPacket() throws {
        let data = (0..<(600 * 3)).map { UInt8($0 % 251) }
        let packets = DDPPacket.frame(data, bytesPerPixel: 3, sequence: 5)
        XCTAssertEqual(packets.map(\.count), [10 + 1440, 10 + 360], "480 RGB pixels a packet at most")
        XCTAssertEqual(packets[0][0], 0x40, "version 1, not pushed")
        XCTAssertEqual(packets[1][0], 0x41, "version 1, pushed")
        XCTAssertEqual(packets.map { $0[1] }, [5, 5], "one sequence number for the frame")
        XCTAssertEqual(packets.map { $0[2] }, [0x0B, 0x0B], "RGB, 8 bits a channel")
        XCTAssertEqual(Array(packets[1][4..<10]), [0, 0, 0x05, 0xA0, 0x01, 0x68], "offset 1440, length 360, big-endian")
        var display = DDPDisplay()
        XCTAssertEqual(display.take(packets[0]).map { $0 == nil }, true, "taken, not shown yet")
        XCTAssertEqual(display.take(packets[1]) ?? nil, data, "the display shows the frame as sent on the push")
        XCTAssertEqual(DDPPacket.frame([UInt8](repeating: 1, count: 8), bytesPerPixel: 4, sequence: 1)[0][2], 0x1B, "RGBW")
        XCTAssertEqual((0..<16).reduce(into: [UInt8(15)]) { s, _ in s.append(DDPPacket.next(after: s.last!)) }.dropFirst().prefix(3), [1, 2, 3])
    }

    func testSACNAndArtNetCarryWholePixelsUniverseAfterUniverse() throws {
        var wire = PixelWire(try spec(#"{"name": "wall", "pixels": 340, "layout": "matrix", "width": 34, "protocol": "sacn", "target": "127.0.0.1", "universe": 7}"#))
        let data = (0..<(340 * 3)).map { UInt8($0 % 256) }
        let packets = wire.packets(data)
        let frames = packets.compactMap { DMXWire.e131($0) }
        XCTAssertEqual(frames.map(\.universe), [7, 8], "170 RGB pixels a universe")
        XCTAssertEqual(Array(frames[0].channels.prefix(510)), Array(data[0..<510]))
        XCTAssertEqual(Array(frames[1].channels.prefix(510)), Array(data[510..<1020]))
        XCTAssertEqual(frames[0].sourceName, "entrain wall")
        let next = wire.packets(data).compactMap { DMXWire.e131($0) }
        XCTAssertEqual(next.map(\.sequence), frames.map { ($0.sequence + 1) % 256 }, "each universe counts its own sequence")

        var rgbw = PixelWire(try spec(#"{"name": "s", "pixels": 300, "protocol": "artnet", "target": "127.0.0.1", "order": "grbw"}"#))
        let art = rgbw.packets([UInt8](repeating: 9, count: 1200)).compactMap { DMXWire.artDmx($0) }
        XCTAssertEqual(art.map(\.universe), [0, 1, 2], "128 RGBW pixels a universe, from port address 0")
        XCTAssertEqual(art.map { $0.channels.count }, [512, 512, 176])
    }

    func testChannelOrderPutsEachColourWhereTheRigSays() throws {
        let output = PixelOutput(PixelFamily(try spec(#"{"name": "s", "pixels": 2, "protocol": "ddp", "target": "127.0.0.1", "order": "grbw"}"#)))
        XCTAssertEqual(output.bytes([PixelColor(1, 0.5, 0, 0.2), .black], gain: 1), [128, 255, 0, 51, 0, 0, 0, 0])
        XCTAssertEqual(output.bytes([PixelColor(1, 1, 1, 1), .black], gain: 0.4), [102, 102, 102, 102, 0, 0, 0, 0])
    }

    func testTheRigFileNamesItsMistakesWithLineAndColumn() {
        func error(_ text: String) -> String {
            do { _ = try PixelRig.parse(text, file: "rig.json"); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(error(#"[{"name": "a", "pixels": 10, "protocol": "dmx", "target": "1.2.3.4"}]"#).hasPrefix("rig.json:1:"), error(#"[{"name": "a", "pixels": 10, "protocol": "dmx", "target": "1.2.3.4"}]"#))
        XCTAssertTrue(error("[\n {\"name\": \"m\", \"pixels\": 10, \"layout\": \"matrix\", \"protocol\": \"ddp\", \"target\": \"1.2.3.4\"}]").contains("width"))
        XCTAssertTrue(error(#"[{"name": "A b", "pixels": 10, "protocol": "ddp", "target": "1.2.3.4"}]"#).contains("a-z"))
        XCTAssertTrue(error(#"[{"name": "a", "pixels": 10, "protocol": "ddp", "target": "1.2.3.4"}, {"name": "a", "pixels": 1, "protocol": "ddp", "target": "1.2.3.4"}]"#).contains("second output"))
        XCTAssertTrue(error(#"[{"name": "a", "pixels": 10, "protocol": "sacn", "target": "1.2.3.4", "universe": 63999}]"#).isEmpty, "10 pixels fit in the last universe")
        XCTAssertTrue(error(#"[{"name": "a", "pixels": 171, "protocol": "sacn", "target": "1.2.3.4", "universe": 63999}]"#).contains("past 63999"))
        XCTAssertTrue(error(#"[{"name": "a", "pixels": 10, "protocol": "ddp", "target": "1.2.3.4", "colour": "red"}]"#).contains("unknown field 'colour'"))
        let outputs = try? PixelRig.parse(#"{"outputs": [{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "10.0.0.2"}]}"#)
        XCTAssertEqual(outputs?.first?.address.port, 4048, "DDP's port by default")
        XCTAssertEqual(outputs?.first?.rate, 50)
    }

    func testFilesAndTheCommandLineKnowEveryOutputsAddresses() throws {
        XCTAssertEqual(try StandardAddresses.parse("/pixels/strip-1/effect", .text("bands"), from: .file).value, .text("bands"))
        XCTAssertThrowsError(try StandardAddresses.parse("/pixels/strip/effect", .text("lasers"), from: .file))
        XCTAssertThrowsError(try StandardAddresses.parse("/pixels/strip/colour", .text("red"), from: .file))
        XCTAssertNil(StandardAddresses.descriptor(for: "/pixels/Big Wall/effect"))
        let schema = OSCSchema.markdown(families: try OSCSchema.standardFamilies())
        XCTAssertTrue(schema.contains("/pixels/NAME/effect"), "the schema lists a pixel output's addresses once")
    }
}

