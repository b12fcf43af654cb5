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
            XCTAssertTrue(committed.contains("| `\(entry.descriptor.address)` |"), "\(entry.descriptor.address) missing from osc-schema.md")
        }
    }

    /// Every fader position of every standard address gives a value the address accepts, and
    /// that value's own position gives it back.
    func testNormalisedMappingsInvert() throws {
        var faders = 0
        for d in StandardAddresses.space where !d.readOnly {
            for n in [0.0, 0.25, 0.5, 0.99, 1.0] {
                guard let value = try? d.value(fromNormalized: n) else { continue }  // text: no /norm
                faders += 1
                XCTAssertNoThrow(try d.parse(value), "\(d.address) at \(n)")
                let position = try XCTUnwrap(d.normalized(value), d.address)
                switch (value, try d.value(fromNormalized: position)) {
                case (.number(let a), .number(let b)): XCTAssertEqual(a, b, accuracy: 1e-9 * max(1, abs(a)), "\(d.address) at \(n)")
                case (let a, let b): XCTAssertEqual(a, b, "\(d.address) at \(n)")
                }
            }
        }
        XCTAssertGreaterThan(faders, 2_000, "engine and Kessho faders both checked (about 500 addresses × 5 positions)")
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
