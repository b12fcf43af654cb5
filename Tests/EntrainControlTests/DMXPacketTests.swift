import EntrainAddressSpace
@testable import EntrainControl
import EntrainCore
import TestSupport
import XCTest

/// The two DMX-over-IP packets, read back by the tests' own decoders (written from the protocol
/// documents) and checked byte by byte where the layout fixes them.
final class DMXPacketTests: XCTestCase {
    func testArtDmxCarriesTheHeaderTheSequenceAndTheFifteenBitPortAddress() throws {
        let channels = (0..<512).map { UInt8($0 & 0xFF) }
        let packet = ArtNetPacket.dmx(sequence: 7, universe: 0x1234, channels: channels)
        XCTAssertEqual(packet.count, 18 + 512)
        XCTAssertEqual(Array(packet[0..<8]), Array("Art-Net".utf8) + [0])
        XCTAssertEqual(Array(packet[8..<10]), [0x00, 0x50], "OpDmx, low byte first")
        XCTAssertEqual(Array(packet[10..<12]), [0, 14], "protocol version 14, high byte first")
        XCTAssertEqual(packet[12], 7)
        XCTAssertEqual(packet[14], 0x34, "SubUni: sub-net and universe")
        XCTAssertEqual(packet[15], 0x12, "Net")
        XCTAssertEqual(Array(packet[16..<18]), [0x02, 0x00], "length 512, high byte first")
        let decoded = try XCTUnwrap(DMXWire.artDmx(packet))
        XCTAssertEqual(decoded.universe, 0x1234)
        XCTAssertEqual(decoded.channels, channels)
        // A short universe is padded to an even length of at least 2.
        XCTAssertEqual(DMXWire.artDmx(ArtNetPacket.dmx(sequence: 1, universe: 0, channels: [9, 8, 7]))?.channels, [9, 8, 7, 0])
        XCTAssertEqual(DMXWire.artDmx(ArtNetPacket.dmx(sequence: 1, universe: 0, channels: []))?.channels, [0, 0])
    }

    func testArtNetSequenceSkipsZeroWhenItWraps() {
        XCTAssertEqual(ArtNetPacket.next(after: 254), 255)
        XCTAssertEqual(ArtNetPacket.next(after: 255), 1, "0 means 'sequence off' to a node")
        var target = DMXTarget(.artNet, address: SocketAddress(ip: 0x7F00_0001, port: 6454))
        var seen: [Int] = []
        for _ in 0..<300 { seen.append(DMXWire.artDmx(target.packet([1], settings: DMXSettings()))!.sequence) }
        XCTAssertEqual(seen.first, 1)
        XCTAssertFalse(seen.contains(0))
        XCTAssertEqual(seen[255], 1, "1…255, then 1 again")
    }

    func testE131PacketHasItsThreeLayersWithTheirLengthsPriorityAndUniverse() throws {
        let cid = (1...16).map { UInt8($0) }
        let packet = SACNPacket.data(cid: cid, sourceName: "entrain", priority: 150, sequence: 42, universe: 513,
                                     channels: [255, 128, 1])
        XCTAssertEqual(packet.count, 638)
        XCTAssertEqual(Array(packet[16..<18]), [0x72, 0x6E], "root layer: flags 0x7, length 622")
        XCTAssertEqual(Array(packet[38..<40]), [0x72, 0x58], "framing layer: length 600")
        XCTAssertEqual(Array(packet[115..<117]), [0x72, 0x0B], "DMP layer: length 523")
        XCTAssertEqual(Array(packet[22..<38]), cid)
        XCTAssertEqual(Array(packet[123..<125]), [0x02, 0x01], "513 property values: start code and 512 slots")
        let decoded = try XCTUnwrap(DMXWire.e131(packet))
        XCTAssertEqual(decoded.priority, 150)
        XCTAssertEqual(decoded.sequence, 42)
        XCTAssertEqual(decoded.universe, 513)
        XCTAssertEqual(decoded.sourceName, "entrain")
        XCTAssertFalse(decoded.terminated)
        XCTAssertEqual(Array(decoded.channels.prefix(4)), [255, 128, 1, 0])
        XCTAssertEqual(decoded.channels.count, 512)
        let last = try XCTUnwrap(DMXWire.e131(SACNPacket.data(cid: cid, sourceName: "x", priority: 100, sequence: 0,
                                                              options: SACNPacket.streamTerminated, universe: 1, channels: [])))
        XCTAssertTrue(last.terminated)
    }

    func testSACNMulticastGroupIsTheUniverseInTheLastTwoBytes() {
        XCTAssertEqual(SACNPacket.multicastGroup(universe: 1).description, "239.255.0.1:5568")
        XCTAssertEqual(SACNPacket.multicastGroup(universe: 513).description, "239.255.2.1:5568")
        XCTAssertEqual(SACNPacket.multicastGroup(universe: 63999).description, "239.255.249.255:5568")
    }

    func testSACNSequenceRunsThroughZero() {
        var target = DMXTarget(.sACN, address: SocketAddress(ip: 0x7F00_0001, port: 5568))
        let seen = (0..<260).map { _ in DMXWire.e131(target.packet([1], settings: DMXSettings()))!.sequence }
        XCTAssertEqual(Array(seen.prefix(3)), [0, 1, 2])
        XCTAssertEqual(seen[256], 0, "wraps 255 → 0")
    }

    func testTargetsParseHostAndPortWithTheProtocolsDefaults() throws {
        XCTAssertEqual(try DMXTarget.parse(.artNet, "2.255.255.255").address.description, "2.255.255.255:6454")
        XCTAssertEqual(try DMXTarget.parse(.sACN, "10.0.0.9").address.description, "10.0.0.9:5568")
        XCTAssertEqual(try DMXTarget.parse(.artNet, "localhost:7000").address.description, "127.0.0.1:7000")
        for bad in ["", "node.local", "10.0.0.1:0", "10.0.0.1:70000", "1.2.3.4:5:6"] {
            XCTAssertThrowsError(try DMXTarget.parse(.artNet, bad), bad) { XCTAssertTrue("\($0)".contains("--artnet"), "\($0)") }
        }
    }
}

/// The channel map: parsing (with errors naming the entry), 8- and 16-bit values, gain, fixed levels.
final class DMXChannelMapTests: XCTestCase {
    func values(_ pairs: [Int: Float]) -> InlineArray<10, Float> {
        var v = InlineArray<10, Float>(repeating: 0)
        for (k, x) in pairs { v[k] = x }
        return v
    }

    func testChannelsCarryEightAndSixteenBitValuesWithGainAndFixedLevels() throws {
        let map = try DMXChannelMap(parsing: "1=led, 2=led_2*0.5, 3=haptic_intensity:16, 9=200, 10=led:8*2")
        let out = map.channels(values([0: 0.5, 1: 1, 8: 0.25]), armed: true)  // armed: the haptic channel shows too
        XCTAssertEqual(out.count, 512)
        XCTAssertEqual(out[0], 128, "0.5 × 255 = 127.5, rounded")
        XCTAssertEqual(out[1], 128, "gain 0.5 on 1.0")
        XCTAssertEqual(Int(out[2]) << 8 | Int(out[3]), 16384, "0.25 × 65535, coarse then fine")
        XCTAssertEqual(out[8], 200)
        XCTAssertEqual(out[9], 255, "gain 2 on 0.5, held to full")
        XCTAssertEqual(out[4..<8].max(), 0)
        XCTAssertEqual(map.channels(nil).max(), 0, "dark: every mapped channel 0, fixed levels too")
        XCTAssertEqual(map.description, "1=led,2=led_2*0.5,3=haptic_intensity:16,9=200,10=led*2")
        XCTAssertEqual(try DMXChannelMap(parsing: map.description), map, "the text form reads back")
        XCTAssertEqual(map.lastChannel, 10)
        XCTAssertEqual(try DMXChannelMap(parsing: "none").entries.count, 0)
        // Out-of-range and non-finite port values never leave 0…255.
        XCTAssertEqual(try DMXChannelMap(parsing: "1=led").channels(values([0: .nan]))[0], 0)
        XCTAssertEqual(try DMXChannelMap(parsing: "1=led").channels(values([0: -3]))[0], 0)
        XCTAssertEqual(try DMXChannelMap(parsing: "1=led:16").channels(values([0: 7]))[0..<2], [255, 255])
    }

    func testBadEntriesAreRefusedWithTheEntryAndTheReason() {
        let cases = [
            ("1=led,1=led_2", "channel 1 is already mapped"),
            ("1=led:16,2=led_2", "channel 2 is already mapped"),
            ("512=led:16", "512 is the last"),
            ("0=led", "outside 1–512"),
            ("513=led", "outside 1–512"),
            ("1=lamp", "unknown source 'lamp'"),
            ("1=led*9", "gain"),
            ("1=led:12", "8 or 16"),
            ("1=300", "unknown source"),
            ("1=200:16", "a fixed level is 8-bit"),
            ("led", "expected CHANNEL=SOURCE"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try DMXChannelMap(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(text): \(error)")
                XCTAssertTrue("\(error)".contains("DMX map entry"), "\(text): \(error)")
            }
        }
    }

    func testTheFamilyChecksTheMapAndKeepsTheUniverseOutOfPresets() throws {
        let family = DMXFamily()
        let space = AddressSpace([family])
        try space.set([ControlChange("/dmx/map", .text("1=led,2=haptic_intensity:16")), ControlChange("/dmx/rate", .number(25))], from: .person)
        XCTAssertEqual(family.settings.map.entries.count, 2)
        XCTAssertEqual(family.settings.rate, 25)
        XCTAssertThrowsError(try space.set([ControlChange("/dmx/map", .text("1=nothing"))], from: .person)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/dmx/map: DMX map entry '1=nothing'"), "\(error)")
        }
        XCTAssertEqual(family.settings.map.description, "1=led,2=haptic_intensity:16", "a refused map changes nothing")
        XCTAssertThrowsError(try family.descriptor(for: "/dmx/rate")!.parse(.number(45)), "never above 44 frames a second")
        let stored = space.presetSnapshot().map(\.address)
        XCTAssertTrue(stored.contains("/dmx/map"))
        XCTAssertFalse(stored.contains("/dmx/universe"), "the universe is chosen per run")
    }
}
