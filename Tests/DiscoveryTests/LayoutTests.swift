import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import TestSupport
import XCTest

/// The Open Stage Control layout: it parses, every address it uses exists, and the shipped copy
/// is what the generator writes.
final class LayoutTests: XCTestCase {
    func testTheLayoutParsesAndNamesOnlyRealAddressesWithTheirRanges() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let tree = OSCQueryTree(space: space)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenStageControlLayout.data(space: space)) as? [String: Any])
        XCTAssertEqual(document["type"] as? String, "session")
        let root = try XCTUnwrap(document["content"] as? [String: Any])
        let tabs = try XCTUnwrap(root["tabs"] as? [[String: Any]])
        var addresses = Set<String>(), ids = Set<String>()
        for tab in tabs {
            let widgets = try XCTUnwrap(tab["widgets"] as? [[String: Any]])
            XCTAssertEqual(widgets.first?["address"] as? String, "/panic", "PANIC first on \(tab["label"] ?? "")")
            for widget in widgets {
                let address = try XCTUnwrap(widget["address"] as? String)
                let id = try XCTUnwrap(widget["id"] as? String)
                XCTAssertTrue(ids.insert(id).inserted, "ids are unique: \(id)")
                XCTAssertNotNil(tree.json(at: address), "\(address) exists")
                addresses.insert(address)
                if widget["type"] as? String == "fader", let (_, descriptor) = space.lookup(address),
                   case .number(let range?, _, _, _) = descriptor.kind {
                    let given = try XCTUnwrap(widget["range"] as? [String: Double])
                    XCTAssertEqual(given["min"], range.lowerBound, address)
                    XCTAssertEqual(given["max"], range.upperBound, address)
                }
            }
        }
        let settable = space.families.flatMap(\.descriptors).filter { !$0.readOnly }.map(\.address)
        XCTAssertEqual(Set(settable).subtracting(addresses), [], "every settable address has a widget")
        XCTAssertTrue(addresses.isSuperset(of: ["/resume", "/session/play", "/session/stop"]))
    }

    /// layouts/ holds what `entrain layout open-stage-control` writes.
    func testTheShippedLayoutIsCurrent() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let shipped = try Data(contentsOf: EntrainBinary.packageRoot.appendingPathComponent("layouts/entrain.open-stage-control.json"))
        XCTAssertTrue(shipped == OpenStageControlLayout.data(space: space) + Data("\n".utf8),
                      "regenerate: entrain layout open-stage-control -o layouts/entrain.open-stage-control.json")
    }
}
