import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import XCTest

/// A command declared once (`/session/restart`) is on every surface made from the declarations:
/// an OSCQuery node that is written and never read, and a push button in the layout.
final class CommandSurfacesTests: XCTestCase {
    func testADeclaredCommandIsAWriteOnlyNodeAndALayoutButton() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let tree = OSCQueryTree(space: space)
        let node = try XCTUnwrap(tree.json(at: "/session/restart"))
        XCTAssertEqual(node["ACCESS"] as? Int, 2)
        XCTAssertEqual(node["TYPE"] as? String, "N")
        XCTAssertNil(node["VALUE"])
        // Inside the whole tree: ACCESS 0 (python-oscquery refuses a node without VALUE otherwise), the access aside.
        let session = try XCTUnwrap((tree.json(at: "/session")?["CONTENTS"] as? [String: [String: Any]])?["restart"])
        XCTAssertEqual(session["ACCESS"] as? Int, 0)
        XCTAssertEqual(session["ENTRAIN_ACCESS"] as? Int, 2)
        XCTAssertEqual(tree.json(at: "/fx/ambient/add")?["TYPE"] as? String, "s", "each bus's chain commands")

        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenStageControlLayout.data(space: space)) as? [String: Any])
        let tabs = try XCTUnwrap((document["content"] as? [String: Any])?["tabs"] as? [[String: Any]])
        let main = try XCTUnwrap(tabs.first?["widgets"] as? [[String: Any]])
        let restart = try XCTUnwrap(main.first { $0["address"] as? String == "/session/restart" })
        XCTAssertEqual(restart["mode"] as? String, "push")
        XCTAssertFalse(main.contains { $0["address"] as? String == "/ambient/play" }, "a release would be a fade of 0 s: not a push button")
    }
}
