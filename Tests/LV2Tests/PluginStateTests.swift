import EntrainEngine
import EntrainLV2
import Foundation
import TestSupport
import XCTest

/// A plugin's internal state (`state:interface`) travels with its chain: x42's IR convolver
/// (x42-plugins) keeps its impulse response as state, not as a control port. Its state is saved
/// in the chain text, changed, and restored, and the restored plugin filters as the saved one did.
final class PluginStateTests: XCTestCase {
    static let convolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"
    static let irKey = "http://gareus.org/oss/lv2/zeroconvolv#ir"

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-state-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A one-spike impulse response of height `gain` (a pure gain of 20·log10(gain) dB).
    private func impulse(_ name: String, gain: Float) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let writer = try WAVWriter(url: url, format: .float32, channels: 1, sampleRate: 48000)
        var samples = [Float](repeating: 0, count: 64)
        samples[0] = gain
        try samples.withUnsafeBufferPointer { try writer.write([$0]) }
        try writer.finish()
        return url
    }

    /// The chain text of the convolver loading `ir` through its state, dry signal off.
    private func chain(ir: URL) throws -> String {
        let property: [String: Any] = ["key": Self.irKey, "type": "http://lv2plug.in/ns/ext/atom#Path", "flags": 3,
                                       "value": Data((ir.path + "\0").utf8).base64EncodedString()]
        let json = try JSONSerialization.data(withJSONObject: [property])
        return "\(Self.convolver) dry=-60 wet=0 state=\(json.base64EncodedString())"
    }

    /// Level change the chain on `rig` makes against a dry render, dB (left channel, last 0.25 s),
    /// once it is `expected` (within 0.2 dB) or 10 s have passed: the convolver loads an impulse
    /// response on its worker thread, which an offline render can outrun (a loaded machine heard
    /// silence, -inf, after 0.75 s rendered in a few milliseconds).
    private func gain(_ rig: InsertChainTests.Rig, settlingOn expected: Double) throws -> Double {
        let dry = try InsertChainTests.Rig()
        dry.render(seconds: 0.75)  // past the start's fade
        let reference = dry.level(last: 0.25).0
        rig.render(seconds: 0.5)
        // Between renders the worker has its turn.
        waitUntil(timeout: 10, interval: 0.002) {
            rig.render(seconds: 0.25)
            return abs(rig.level(last: 0.25).0 - reference - expected) < 0.2
        }
        return rig.level(last: 0.25).0 - reference
    }

    func testStateIsSavedChangedAndRestoredWithTheChain() throws {
        let half = try impulse("half.wav", gain: 0.5), eighth = try impulse("eighth.wav", gain: 0.125)
        let rig = try InsertChainTests.Rig()
        rig.chains.stateFolders = [folder]
        try rig.chains.replace(.entrainment, with: ChainText(parsing: try chain(ir: half)))
        XCTAssertEqual(try gain(rig, settlingOn: -6.02), -6.02, accuracy: 0.2, "the state's impulse response is heard")

        // Saved: the chain text carries the state, and it names the impulse response.
        let saved = rig.chains.text(.entrainment)
        let word = try XCTUnwrap(saved.slots.first?.state, "the convolver's state is saved: \(saved.text)")
        let properties = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(Data(base64Encoded: word))) as? [[String: Any]])
        let ir = try XCTUnwrap(properties.first { $0["key"] as? String == Self.irKey }, "\(properties)")
        let path = Data(base64Encoded: try XCTUnwrap(ir["value"] as? String)).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(path, half.path + "\0", "the saved state names the impulse response")
        XCTAssertEqual(try ChainText(parsing: saved.text), saved, "the text reads back as written")

        // Changed: another impulse response through the same address.
        try rig.chains.replace(.entrainment, with: ChainText(parsing: try chain(ir: eighth)))
        XCTAssertEqual(try gain(rig, settlingOn: -18.06), -18.06, accuracy: 0.2, "the other impulse response")
        XCTAssertNotEqual(rig.chains.text(.entrainment).slots.first?.state, word, "the saved state follows the change")

        // Restored: the saved text brings the first one back, in a running chain and in a new one.
        try rig.chains.replace(.entrainment, with: ChainText(parsing: saved.text))
        XCTAssertEqual(try gain(rig, settlingOn: -6.02), -6.02, accuracy: 0.2, "restored in the running chain")
        let fresh = try InsertChainTests.Rig()
        fresh.chains.stateFolders = [folder]
        try fresh.chains.replace(.entrainment, with: ChainText(parsing: saved.text))
        XCTAssertEqual(try gain(fresh, settlingOn: -6.02), -6.02, accuracy: 0.2, "restored in a new chain")
    }

    /// A state may name only regular files inside the data folders: a pipe (which would block
    /// the convolver's worker in open, and the teardown behind it, for good), a device, a file
    /// elsewhere, or a link out of the folder is refused before the plugin sees it.
    func testAStateNamingAPipeADeviceOrAFileElsewhereIsRefused() throws {
        let rig = try InsertChainTests.Rig()
        rig.chains.stateFolders = [folder]
        let fifo = folder.appendingPathComponent("ir.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("elsewhere-\(getpid()).wav")
        try Data("RIFF".utf8).write(to: elsewhere)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let link = folder.appendingPathComponent("link.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        let refusals: [(URL, String)] = [(fifo, "not a regular file"), (URL(fileURLWithPath: "/dev/zero"), "outside the folders"),
                                         (elsewhere, "outside the folders"), (link, "outside the folders")]
        for (path, reason) in refusals {
            XCTAssertThrowsError(try rig.chains.replace(.entrainment, with: ChainText(parsing: try chain(ir: path)))) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(path.path): \(error)")
            }
        }
        XCTAssertTrue(rig.chains.chain(.entrainment).isEmpty, "nothing loaded")
        rig.chains.stateFolders = [folder.appendingPathComponent("dev"), URL(fileURLWithPath: "/dev")]
        XCTAssertThrowsError(try rig.chains.replace(.entrainment, with: ChainText(parsing: try chain(ir: URL(fileURLWithPath: "/dev/zero"))))) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "a device inside an allowed folder: \(error)")
        }
    }

    func testAMalformedStateIsAClearError() {
        XCTAssertThrowsError(try ChainText(parsing: "\(Self.convolver) state=%%%")) { error in
            XCTAssertTrue("\(error)".contains("state=… is not base64"), "\(error)")
        }
        XCTAssertThrowsError(try ChainText(parsing: "\(Self.convolver) state=\(Data("{}".utf8).base64EncodedString())")) { error in
            XCTAssertTrue("\(error)".contains("is not a list of properties"), "\(error)")
        }
    }

    func testAStateForAPluginWithoutStateIsRefused() throws {
        let rig = try InsertChainTests.Rig()
        let state = Data("[]".utf8).base64EncodedString()
        XCTAssertThrowsError(try rig.chains.replace(.entrainment, with: ChainText(parsing: "\(InsertChainTests.amp) state=\(state)"))) { error in
            XCTAssertTrue("\(error)".contains("keeps no state"), "\(error)")
        }
        XCTAssertTrue(rig.chains.chain(.entrainment).isEmpty, "nothing changed")
    }
}
