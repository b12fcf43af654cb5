import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import TestSupport
import XCTest

/// The Open Stage Control layout: it parses, every address it uses exists, and the shipped copy
/// is what the generator writes.
final class LayoutTests: XCTestCase {
    func testTheLayoutParsesAndNamesOnlyRealAddressesWithTheirRanges() throws {
        for (name, space) in try LayoutSpaces.all() { try checkLayout(space, name) }
    }

    func checkLayout(_ space: AddressSpace, _ name: String) throws {
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
                XCTAssertTrue(tree.json(at: address) != nil || ShowSurface.published.contains(address), "\(address) exists")
                XCTAssertFalse(space.lookup(address)?.descriptor.personOnly == true, "\(address): arming is a person's decision, not a layout's")
                addresses.insert(address)
                if widget["type"] as? String == "fader", let (_, descriptor) = space.lookup(address),
                   case .number(let range?, _, _, _) = descriptor.kind {
                    let given = try XCTUnwrap(widget["range"] as? [String: Double])
                    XCTAssertEqual(given["min"], range.lowerBound, address)
                    XCTAssertEqual(given["max"], range.upperBound, address)
                }
            }
        }
        let settable = space.families.flatMap(\.descriptors).filter { !$0.readOnly && !$0.personOnly }.map(\.address)
        XCTAssertEqual(Set(settable).subtracting(addresses), [], "\(name): every settable address has a widget")
        XCTAssertTrue(addresses.isSuperset(of: ["/resume", "/session/play", "/session/stop"]))
    }

    /// The show tab comes first and runs a show: PANIC, the transport's buttons, the timer's
    /// presets as taps (a release would send 0 and clear the timer), the show's values, readouts
    /// of what subscribers receive, and a name field for each loader (presets, ambient presets,
    /// sessions, playlists, patterns).
    func testTheShowTabComesFirstWithTimerReadoutsAndLoaders() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: OpenStageControlLayout.data(space: space)) as? [String: Any])
        let tabs = try XCTUnwrap((document["content"] as? [String: Any])?["tabs"] as? [[String: Any]])
        let show = try XCTUnwrap(tabs.first)
        XCTAssertEqual(show["label"] as? String, "Show")
        let widgets = try XCTUnwrap(show["widgets"] as? [[String: Any]])
        func placed(_ type: String, at address: String) -> [[String: Any]] {
            widgets.filter { $0["type"] as? String == type && $0["address"] as? String == address }
        }
        XCTAssertEqual(widgets.first?["address"] as? String, "/panic")
        for address in ["/resume", "/session/play", "/session/stop", "/session/pause", "/ambient/play", "/ambient/stop"] {
            XCTAssertEqual(placed("button", at: address).count, 1, address)
        }
        let timer = placed("button", at: "/timer/minutes")
        XCTAssertEqual(timer.compactMap { $0["on"] as? Double }, [10, 20, 30, 60])
        XCTAssertTrue(timer.allSatisfy { $0["mode"] as? String == "tap" }, "a tap sends the minutes and nothing on release")
        for address in ["/entrain/volume", "/ambient/masterVolume"] { XCTAssertEqual(placed("fader", at: address).count, 1, address) }
        for address in ["/beat/bpm", "/beat/confidence", "/session/state", "/session/remaining", "/timer/remaining", "/hrv/hr"] {
            XCTAssertEqual(placed("text", at: address).count, 1, "readout of \(address)")
        }
        let loaders = Set(widgets.filter { $0["type"] as? String == "input" }.compactMap { $0["address"] as? String })
        XCTAssertEqual(loaders, ["/preset/load", "/ambient/preset/load", "/session/load", "/playlist/play", "/haptic/pattern"])
    }

    /// layouts/ holds what `entrain layout open-stage-control` writes.
    func testTheShippedLayoutIsCurrent() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let shipped = try Data(contentsOf: EntrainBinary.packageRoot.appendingPathComponent("layouts/entrain.open-stage-control.json"))
        XCTAssertTrue(shipped == OpenStageControlLayout.data(space: space) + Data("\n".utf8),
                      "regenerate: entrain layout open-stage-control -o layouts/entrain.open-stage-control.json")
    }
}
