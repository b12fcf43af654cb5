import EntrainAddressSpace
@testable import EntrainControl
import Foundation
import XCTest

/// A pixel output's settings travel in presets like every family's: saved from the address
/// space, read back as checked changes, applied to the running output; a person's arming is not.
final class PixelPresetTests: XCTestCase {
    func testAPresetCarriesAPixelOutputsSettingsBackToIt() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("pixel-presets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let library = Library(dataDirectory: data)
        let spec = try XCTUnwrap(PixelRig.parse(#"[{"name": "strip", "pixels": 30, "protocol": "ddp", "target": "127.0.0.1"}]"#).first)
        let saved = PixelFamily(spec)
        let space = AddressSpace([saved])
        try space.set([try space.parse("/pixels/strip/effect", .text("bands")), try space.parse("/pixels/strip/speed", .number(2.5))], from: .person)
        try library.presets.save("Club", entries: space.presetSnapshot())

        let restored = PixelFamily(spec)
        let changes = try library.presets.changes("Club").filter { $0.address.hasPrefix("/pixels/") }
        try AddressSpace([restored]).set(changes, from: .file)
        XCTAssertEqual(restored.settings.effect, .bands)
        XCTAssertEqual(restored.settings.speed, 2.5)
        XCTAssertEqual(restored.value(of: "/pixels/strip/palette"), .text("warm"))
    }
}
