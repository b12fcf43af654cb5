import EntrainControl
import EntrainCore
import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class SchemaAndNetworkTests: XCTestCase {
    /// osc-schema.md is what the table says, word for word: regenerate it with
    /// `entrain osc-schema > osc-schema.md` after changing a parameter.
    func testCommittedSchemaMatchesTheParameterTable() throws {
        let committed = try String(contentsOf: EntrainBinary.packageRoot.appendingPathComponent("osc-schema.md"), encoding: .utf8)
        let generated = OSCSchema.markdown(families: try OSCSchema.standardFamilies())
        XCTAssertTrue(committed == generated, "osc-schema.md is stale: run `entrain osc-schema > osc-schema.md`")
        for entry in Engine.parameterTable.entries {
            XCTAssertTrue(committed.contains("| `\(entry.spec.address)` |"), "\(entry.spec.address) missing from osc-schema.md")
        }
    }

    func testNormalisedMappingsInvert() {
        for entry in Engine.parameterTable.entries {
            for n in [0.0, 0.25, 0.5, 0.99] {
                let value = entry.spec.value(fromNormalized: n)
                XCTAssertNoThrow(try entry.spec.validate(value), entry.spec.address)
                XCTAssertEqual(entry.spec.value(fromNormalized: entry.spec.normalized(value)), value, accuracy: 1e-9, entry.spec.address)
            }
        }
    }

    func testAllowListParsesNetworks() throws {
        let list = try AllowList(parsing: "192.168.1.0/24, 10.0.0.7")
        XCTAssertTrue(list.allows(SocketAddress(host: "192.168.1.200", port: 1)!))
        XCTAssertFalse(list.allows(SocketAddress(host: "192.168.2.1", port: 1)!))
        XCTAssertTrue(list.allows(SocketAddress(host: "10.0.0.7", port: 1)!))
        XCTAssertFalse(list.allows(SocketAddress(host: "10.0.0.8", port: 1)!))
        XCTAssertTrue(list.allows(SocketAddress(host: "127.0.0.1", port: 1)!), "loopback is always allowed")
        XCTAssertFalse(AllowList().allows(SocketAddress(host: "8.8.8.8", port: 1)!))
        XCTAssertTrue(try AllowList(parsing: "any").allows(SocketAddress(host: "8.8.8.8", port: 1)!))
        XCTAssertThrowsError(try AllowList(parsing: "10.0.0.0/33"))
        XCTAssertThrowsError(try AllowList(parsing: "example.com"))
    }
}
