import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import TestSupport
import XCTest

/// The TouchOSC layout read back by a third party's reader (tosclib): every control sends to a
/// real address, with the argument and range that address takes, feedback comes back where a
/// subscriber receives it, nothing can arm the strobe, and the shipped copy is current.
final class TouchOSCLayoutTests: XCTestCase {
    func testEveryControlSendsWhatItsAddressTakes() throws {
        if let reason = TouchOSCMessage.unavailable { throw XCTSkip(reason) }
        for (name, space) in try LayoutSpaces.all() { try checkLayout(space, name) }
    }

    func checkLayout(_ space: AddressSpace, _ name: String) throws {
        let folder = try TemporaryFolder("tosc")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("entrain.tosc")
        try TouchOSCLayout.data(space: space).write(to: file)
        let messages = try TouchOSCMessage.read(file)
        let commands = Dictionary(space.families.flatMap(\.commands).map { ($0.address, $0) }) { first, _ in first }
        var covered = Set<String>()

        for message in messages {
            let path = try XCTUnwrap(message.constantPath, "every path is one constant: \(message.path)")
            XCTAssertEqual(message.arguments.count, 1, path)
            guard let argument = message.arguments.first else { continue }
            if !message.send {  // a readout: fed back, never sent
                XCTAssertEqual(message.type, "LABEL", path)
                XCTAssertTrue(space.lookup(path)?.descriptor.readOnly == true || ShowSurface.published.contains(path),
                              "\(path): a readout shows a published address")
                continue
            }
            if path.hasSuffix("/norm") {
                let base = String(path.dropLast(5))
                let descriptor = try XCTUnwrap(space.lookup(base)?.descriptor, "\(base) exists")
                XCTAssertFalse(descriptor.readOnly || descriptor.personOnly, base)
                XCTAssertEqual([argument.type, argument.conversion, argument.value, argument.scaleMin, argument.scaleMax],
                               ["VALUE", "FLOAT", "x", "0", "1"], "\(path): the control's 0…1 as a float")
                XCTAssertNoThrow(try descriptor.value(fromNormalized: 0.5), "\(base) has a /norm address")
                XCTAssertTrue(message.receive, "\(path) moves with feedback")
                covered.insert(base)
            } else if let descriptor = space.lookup(path)?.descriptor {
                guard case .choice(let options, _) = descriptor.kind else { XCTFail("\(path): only choices send to a value's address"); continue }
                XCTAssertEqual(argument.type, "CONSTANT", path)
                XCTAssertTrue(options.contains(argument.value ?? ""), "\(path): '\(argument.value ?? "")' is an option")
                XCTAssertEqual(message.condition, "RISE", "\(path): an option is sent on the press")
                covered.insert(path)
            } else {
                let command = try XCTUnwrap(commands[path], "\(path) is a command")
                XCTAssertFalse(command.personOnly, path)
                if argument.type == "CONSTANT" {
                    XCTAssertEqual(path, "/timer/minutes")
                    XCTAssertNotNil(Double(argument.value ?? ""), "minutes as a number")
                } else {
                    XCTAssertTrue(command.pressable || path == "/panic", "\(path) takes a button")
                    XCTAssertEqual(argument.conversion, "BOOLEAN", "\(path): T on the press, F on the release")
                }
                covered.insert(path)
            }
        }
        XCTAssertTrue(messages.contains { $0.constantPath == "/panic" && $0.type == "BUTTON" }, "PANIC")
        let settable = space.families.flatMap(\.descriptors).filter { d in
            guard !d.readOnly, !d.personOnly else { return false }
            if case .number(let range, _, _, _) = d.kind { return range != nil }
            if case .toggle = d.kind { return true }
            if case .choice = d.kind { return true }
            return false
        }.map(\.address)
        XCTAssertEqual(Set(settable).subtracting(covered), [], "\(name): every ranged number, switch and choice has a control")
        XCTAssertFalse(messages.contains { $0.constantPath?.hasPrefix("/led/arm") == true }, "nothing arms the strobe")
        let pressable = space.families.flatMap(\.commands).filter(\.pressable).map(\.address)
        XCTAssertEqual(Set(pressable).subtracting(covered), [], "every push-button command has a button")
        let pages = messages.compactMap(\.page)
        XCTAssertEqual(pages.first, "show", "the show page first")
        print("TouchOSC layout (\(name)) read back by tosclib: \(messages.count) messages on \(Set(pages).count) pages, \(covered.count) addresses")
    }

    /// layouts/ holds what `entrain layout touchosc` writes.
    func testTheShippedLayoutIsCurrent() throws {
        let space = AddressSpace(try OSCSchema.standardFamilies())
        let shipped = try Data(contentsOf: EntrainBinary.packageRoot.appendingPathComponent("layouts/entrain.tosc"))
        XCTAssertTrue(shipped == (try TouchOSCLayout.data(space: space)), "regenerate: entrain layout touchosc -o layouts/entrain.tosc")
    }
}
