import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import Synchronization
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
        // A command that takes arguments or a press gets T and F (a number would be a fade).
        let play = try XCTUnwrap(main.first { $0["address"] as? String == "/ambient/play" })
        XCTAssertEqual(play["on"] as? Bool, true)
        XCTAssertEqual(play["off"] as? Bool, false)
    }

    /// What the control page builds from: a command's arguments (with the names of what is stored
    /// now, read at each request, as its RANGE's VALS too), whether a controller's press does it,
    /// a fader's curve and step, and a person's decision marked as such.
    func testTheTreeCarriesArgumentsStoredNamesCurvesAndPersonOnly() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let tree = OSCQueryTree(space: space)
        let names = Mutex(["calm"])
        space.provide(.presets) { names.withLock { $0 } }
        func load() throws -> [String: Any] { try XCTUnwrap(tree.json(at: "/preset/load")) }
        var arguments = try XCTUnwrap(try load()["ENTRAIN_ARGUMENTS"] as? [[String: Any]])
        XCTAssertEqual(arguments.map { $0["NAME"] as? String }, ["name", "glide"])
        XCTAssertEqual(arguments.map { $0["OPTIONAL"] as? Bool }, [false, true])
        XCTAssertEqual(arguments.first?["VALS"] as? [String], ["calm"])
        XCTAssertEqual((try load()["RANGE"] as? [[String: Any]])?.first?["VALS"] as? [String], ["calm"])
        names.withLock { $0.append("focus") }
        arguments = try XCTUnwrap(try load()["ENTRAIN_ARGUMENTS"] as? [[String: Any]])
        XCTAssertEqual(arguments.first?["VALS"] as? [String], ["calm", "focus"], "read again at each request")
        XCTAssertNil((try XCTUnwrap(tree.json(at: "/session/load"))["ENTRAIN_ARGUMENTS"] as? [[String: Any]])?.first?["VALS"], "no sessions provided here")
        XCTAssertEqual(tree.json(at: "/session/restart")?["ENTRAIN_BUTTON"] as? Bool, true)
        XCTAssertNil(try XCTUnwrap(tree.json(at: "/timer/minutes"))["ENTRAIN_BUTTON"], "without an argument it is a query, not a press")
        XCTAssertEqual(tree.json(at: "/ping")?["ENTRAIN_ANSWERS_ONLY"] as? Bool, true, "its whole effect is its reply")
        // A command with nothing to give and no press is a query: declared as one, so a surface
        // needs no guess (the page leaves out exactly what says ENTRAIN_ANSWERS_ONLY).
        let queries = space.families.flatMap(\.commands).filter { $0.arguments.isEmpty && $0.trigger == .arguments }
        XCTAssertFalse(queries.isEmpty)
        XCTAssertEqual(queries.filter { !$0.answersOnly }.map(\.address), [], "queries not declared answersOnly")
        XCTAssertNil(try XCTUnwrap(tree.json(at: "/session/restart"))["ENTRAIN_ANSWERS_ONLY"])

        XCTAssertEqual(tree.json(at: "/entrain/carrier")?["ENTRAIN_CURVE"] as? String, "logarithmic")
        XCTAssertNil(try XCTUnwrap(tree.json(at: "/entrain/beat"))["ENTRAIN_CURVE"], "linear: nothing to say")
        XCTAssertEqual(tree.json(at: "/ambient/masterVolume")?["ENTRAIN_STEP"] as? Double, 0.01)
        XCTAssertEqual(tree.json(at: "/led/arm")?["ENTRAIN_PERSON_ONLY"] as? Bool, true)
        XCTAssertNil(try XCTUnwrap(tree.json(at: "/led/level"))["ENTRAIN_PERSON_ONLY"])
    }
}
