import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import XCTest

/// The OSCQuery namespace against the address space it is made from, and against OSCQuery's
/// attribute rules.
final class OSCQueryTreeTests: XCTestCase {
    var space: AddressSpace!
    var tree: OSCQueryTree!

    override func setUpWithError() throws {
        space = AddressSpace(try OSCSchema.standardFamilies())
        tree = OSCQueryTree(space: space)
    }

    func testEveryAddressOfEveryFamilyIsANodeWithItsTypeRangeAccessAndValue() throws {
        var count = 0
        for family in space.families {
            for d in family.descriptors {
                let node = try XCTUnwrap(tree.json(at: d.address), d.address)
                XCTAssertEqual(node["FULL_PATH"] as? String, d.address)
                let value = (node["VALUE"] as? [Any])?.first
                // A value not yet known (a metric before it is measured) is ACCESS 0, "no value".
                XCTAssertEqual(node["ACCESS"] as? Int, value == nil ? 0 : d.readOnly ? 1 : 3, d.address)
                if value == nil { XCTAssertEqual(node["ENTRAIN_ACCESS"] as? Int, d.readOnly ? 1 : 3, d.address) }
                switch d.kind {
                case .number(let range, _, _, _):
                    XCTAssertEqual(node["TYPE"] as? String, "f", d.address)
                    if let range {
                        let bounds = try XCTUnwrap((node["RANGE"] as? [[String: Any]])?.first, d.address)
                        XCTAssertEqual(bounds["MIN"] as? Double, range.lowerBound, d.address)
                        XCTAssertEqual(bounds["MAX"] as? Double, range.upperBound, d.address)
                        XCTAssertEqual(node["CLIPMODE"] as? [String], ["both"])
                    }
                    XCTAssertEqual(value as? Double, family.value(of: d.address)?.number, d.address)
                case .toggle:
                    XCTAssertEqual(node["TYPE"] as? String, "T", d.address)
                    XCTAssertEqual(value as? Bool, family.value(of: d.address)?.bool, d.address)
                case .choice(let options, _):
                    XCTAssertEqual(node["TYPE"] as? String, "s", d.address)
                    XCTAssertEqual((node["RANGE"] as? [[String: Any]])?.first?["VALS"] as? [String], options, d.address)
                    XCTAssertEqual(value as? String, family.value(of: d.address)?.text, d.address)
                case .list(let options):
                    // A list's VALS are the values it can take (each option, combinations, "none"),
                    // so the value in force is always one of them.
                    XCTAssertEqual(node["TYPE"] as? String, "s", d.address)
                    let vals = try XCTUnwrap((node["RANGE"] as? [[String: Any]])?.first?["VALS"] as? [String], d.address)
                    XCTAssertTrue(Set(options).isSubset(of: vals), d.address)
                    XCTAssertEqual(value as? String, family.value(of: d.address)?.text, d.address)
                    if let text = value as? String { XCTAssertTrue(vals.contains(text), "\(d.address): \(text)") }
                case .text:
                    XCTAssertEqual(node["TYPE"] as? String, "s", d.address)
                }
                if !d.unit.isEmpty { XCTAssertNotNil(node["UNIT"] as? [String], d.address) }
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 500, "the engine's parameters and the 403 Kessho keys")
        let carrier = try XCTUnwrap(tree.json(at: "/entrain/carrier"))
        XCTAssertEqual(carrier["UNIT"] as? [String], ["frequency.hz"])
        XCTAssertEqual((carrier["VALUE"] as? [Double])?.first, 200)
    }

    /// FULL_PATH on every node and equal to where it sits; containers have CONTENTS and no
    /// TYPE; a leaf has a TYPE; ACCESS 0–3; a RANGE per value.
    func testEveryNodeFollowsTheAttributeRules() throws {
        let root = try XCTUnwrap(tree.json(at: "/"))
        XCTAssertEqual(root["FULL_PATH"] as? String, "/")
        var nodes = 0
        func walk(_ node: [String: Any], path: String) {
            nodes += 1
            XCTAssertEqual(node["FULL_PATH"] as? String, path)
            let access = node["ACCESS"] as? Int
            XCTAssertNotNil(access, path)
            XCTAssertTrue((0...3).contains(access ?? -1), path)
            let contents = node["CONTENTS"] as? [String: [String: Any]]
            if contents == nil { XCTAssertNotNil(node["TYPE"] as? String, "a leaf is a method: \(path)") }
            if node["TYPE"] == nil { XCTAssertEqual(access, 0, "a pure container: \(path)") }
            if let type = node["TYPE"] as? String, let range = node["RANGE"] as? [Any], type != "N" {
                XCTAssertEqual(range.count, type.count, "one RANGE item per type tag: \(path)")
            }
            for (name, child) in contents ?? [:] {
                XCTAssertFalse(name.contains("/"), path)
                walk(child, path: path == "/" ? "/\(name)" : "\(path)/\(name)")
            }
        }
        walk(root, path: "/")
        XCTAssertGreaterThan(nodes, 600)
        // And the text is JSON a client can read back.
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(OSCQueryTree.encode(root))))
    }

    func testCommandsAndWhatEntrainSendsComeFromTheSchema() throws {
        let panic = try XCTUnwrap(tree.json(at: "/panic"))
        XCTAssertEqual(panic["ACCESS"] as? Int, 2, "its own query: written")
        let inTree = ((tree.json(at: "/")?["CONTENTS"] as? [String: Any])?["panic"]) as? [String: Any]
        XCTAssertEqual(inTree?["ACCESS"] as? Int, 0, "inside a tree: no value (what python-oscquery requires)")
        XCTAssertEqual(inTree?["ENTRAIN_ACCESS"] as? Int, 2, "and written")
        XCTAssertEqual(panic["TYPE"] as? String, "N")
        XCTAssertEqual(tree.json(at: "/session/load")?["TYPE"] as? String, "s")
        XCTAssertEqual(tree.json(at: "/session/seek")?["TYPE"] as? String, "f")
        XCTAssertEqual(tree.json(at: "/ambient/preset/load")?["TYPE"] as? String, "s", "the optional crossfade is left out")
        let meter = try XCTUnwrap(tree.json(at: "/meter/entrainment"))
        XCTAssertEqual(meter["ACCESS"] as? Int, 1)
        XCTAssertEqual(meter["TYPE"] as? String, "ff")
        let bpm = try XCTUnwrap(tree.json(at: "/beat/bpm"))
        XCTAssertEqual((bpm["ENTRAIN_ACCESS"] ?? bpm["ACCESS"]) as? Int, 1, "read (once measured)")
        XCTAssertNil(tree.json(at: "/led/gain/N"), "patterns in the schema are not nodes")
        // Both names of a row that lists two.
        XCTAssertNotNil(tree.json(at: "/playlist/rename"))
        XCTAssertNotNil(tree.json(at: "/playlist/delete"))
    }

    func testAttributeQueries() throws {
        guard case .value(let value) = tree.attribute("VALUE", at: "/entrain/beat") else { return XCTFail("VALUE") }
        XCTAssertEqual((value["VALUE"] as? [Double])?.first, 10)
        guard case .notApplicable = tree.attribute("VALUE", at: "/entrain") else { return XCTFail("a container has no VALUE") }
        guard case .unknown = tree.attribute("COLOUR", at: "/entrain/beat") else { return XCTFail("unknown attribute") }
        guard case .noNode = tree.attribute("VALUE", at: "/nowhere") else { return XCTFail("no node") }
    }
}
