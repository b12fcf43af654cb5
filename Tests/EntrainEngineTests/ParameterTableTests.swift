import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import TestSupport
import XCTest

final class ParameterTableTests: XCTestCase {
    let table = Engine.parameterTable

    func testEveryAddressIsUniqueAndHasAValidDefault() throws {
        XCTAssertEqual(Set(table.entries.map(\.descriptor.address)).count, table.count)
        for entry in table.entries { XCTAssertNoThrow(try entry.descriptor.checked(number: entry.descriptor.defaultNumber), entry.descriptor.address) }
        XCTAssertNoThrow(try table.checkConstraints(table.defaults))
    }

    /// The status line's words: names for choices, numbers to six significant digits with the unit.
    func testValuesAreDescribedAsAPersonReadsThem() throws {
        let carrier = try table.entry(for: "/entrain/carrier").descriptor
        XCTAssertEqual(carrier.describe(number: 974.0586065222449), "974.059 Hz")
        XCTAssertEqual(carrier.describe(number: 200), "200 Hz")
        XCTAssertEqual(try table.entry(for: "/entrain/beat").descriptor.describe(number: 89.99999761581421), "90 Hz")
        XCTAssertEqual(try table.entry(for: "/entrain/mode").descriptor.describe(number: 1), "monaural")
    }

    func testOutOfRangeIsRejectedWithTheRangeInTheMessage() throws {
        let host = try TestEngine.host()
        XCTAssertThrowsError(try host.change("/entrain/carrier", 2000)) { error in
            XCTAssertEqual("\(error)", "/entrain/carrier: 2000 Hz is out of range 20–1500 Hz")
        }
        XCTAssertThrowsError(try host.change("/entrain/beat", -1))
        XCTAssertThrowsError(try host.change("/entrain/volume", .nan)) { error in
            XCTAssertEqual(error as? ControlError, ControlError("/entrain/volume", "value must be a finite number (got NaN or infinity)"))
        }
        XCTAssertThrowsError(try host.change("/entrain/nonsense", 1)) { error in
            XCTAssertEqual("\(error)", "/entrain/nonsense: unknown address")
        }
        XCTAssertThrowsError(try host.change("/entrain/mode", 7))
        XCTAssertEqual(try host.value(of: "/entrain/carrier"), 200, "a rejected change changes nothing")
    }

    func testIsochronicNeedsAPulseRateOfAtLeastHalfAHertz() throws {
        let host = try TestEngine.host(["/entrain/beat": "0.2"])  // fine for binaural
        XCTAssertThrowsError(try host.change("/entrain/mode", 2)) { error in
            XCTAssertTrue("\(error)".contains("at least 0.5 Hz"), "\(error)")
        }
        XCTAssertThrowsError(try TestEngine.host(["/entrain/mode": "isochronic", "/entrain/beat": "0.2"]))
    }

    func testCenteredConventionKeepsTheLowerToneAboveZero() {
        XCTAssertThrowsError(try TestEngine.host(["/entrain/convention": "centered", "/entrain/carrier": "30",
                                                  "/entrain/beat": "80"]))
    }
}
