import EntrainControl
import EntrainCore
import EntrainEngine
import TestSupport
import XCTest

/// The router against a real engine rendering offline: what a message changes, and what it does not.
final class OSCRouterTests: XCTestCase {
    var host: EngineHost!
    var router: OSCRouter!
    /// The fake clock: 1 s of OSC time = 48,000 frames from unix time 1,000,000.
    let epoch = 1_000_000.0

    override func setUpWithError() throws {
        host = try TestEngine.host(["/entrain/volume": "0.5"])
        let engine = host!, epoch = self.epoch
        router = OSCRouter(host: { engine }, frame: { Int64((($0.unixTime - epoch) * 48_000).rounded()) },
                           status: { [.string("running")] })
    }

    func handle(_ address: String, _ arguments: [OSCValue] = [], at tag: OSCTimetag = .immediately) -> [OSCRouter.Action] {
        router.handle(TimedMessage(timetag: tag, message: OSCMessage(address, arguments)))
    }

    func value(_ address: String) throws -> Double { try host.value(of: address) }

    func testSetAndQueryInNaturalUnits() throws {
        XCTAssertEqual(handle("/entrain/carrier", [.float(321.5)]), [])
        XCTAssertEqual(try value("/entrain/carrier"), 321.5)
        XCTAssertEqual(handle("/entrain/carrier", [.int32(400)]), [], "integers are accepted as numbers")
        XCTAssertEqual(handle("/entrain/carrier", [.double(410)]), [])
        XCTAssertEqual(handle("/entrain/carrier"), [.reply(OSCMessage("/entrain/carrier", [.float(410)]))])
        XCTAssertEqual(handle("/entrain/mode", [.string("monaural")]), [])
        XCTAssertEqual(handle("/entrain/mode"), [.reply(OSCMessage("/entrain/mode", [.string("monaural")]))])
        XCTAssertEqual(handle("/entrain/mode", [.int32(2)]), [], "choices also take their index")
        XCTAssertEqual(try value("/entrain/mode"), 2)
    }

    /// /led/source and /haptic/source set their toggles together; bad names change nothing.
    func testSourceListsSetTheirToggles() throws {
        XCTAssertEqual(handle("/led/source", [.string("beat, manual")]), [])
        XCTAssertEqual(try ["entrainment", "beat", "manual", "pattern"].map { try value("/led/source/\($0)") }, [0, 1, 1, 0])
        XCTAssertEqual(handle("/led/source"), [.reply(OSCMessage("/led/source", [.string("beat,manual")]))])
        guard case .error(_, let reason)? = handle("/led/source", [.string("beat,disco")]).first else { return XCTFail("no error") }
        XCTAssertTrue(reason.contains("unknown name 'disco'"), reason)
        XCTAssertEqual(try value("/led/source/beat"), 1, "unchanged after the refused list")
        XCTAssertEqual(handle("/haptic/source", [.string("none")]), [])
        XCTAssertEqual(try value("/haptic/source/entrainment"), 0)
        XCTAssertEqual(handle("/haptic/source", [.float(3)]).count, 1, "a number is an error")
        XCTAssertEqual(handle("/led/arm", [.int32(1)]), [])
        XCTAssertEqual(try value("/led/arm"), 1)
        XCTAssertEqual(handle("/led/thermal", [.string("serious")]), [])
        XCTAssertEqual(try value("/led/thermal"), 2)
    }

    func testNormalisedAddressesFollowTheCurve() throws {
        XCTAssertEqual(handle("/entrain/carrier/norm", [.float(0.5)]), [])
        XCTAssertEqual(try value("/entrain/carrier"), (20.0 * 1500).squareRoot(), accuracy: 0.01)  // log: geometric mean
        XCTAssertEqual(handle("/entrain/volume/norm", [.float(1.7)]), [], "/norm clamps")
        XCTAssertEqual(try value("/entrain/volume"), 1)
        XCTAssertEqual(handle("/entrain/mode/norm", [.float(0.9)]), [])
        XCTAssertEqual(try value("/entrain/mode"), 2)
        guard case .reply(let reply) = handle("/entrain/carrier/norm").first, case .float(let n) = reply.arguments.first else {
            return XCTFail("no /norm reply")
        }
        XCTAssertEqual(Double(n), 0.5, accuracy: 1e-6)
    }

    /// Every kind of bad input: an /error naming the address and the reason, and no change.
    func testBadInputIsRefusedWithoutChangingAnything() throws {
        let before = host.values
        let cases: [(String, [OSCValue], String)] = [
            ("/entrain/carrier", [.float(5000)], "out of range 20–1500 Hz"),
            ("/entrain/carrier", [.float(.nan)], "finite"),
            ("/entrain/carrier", [.double(.infinity)], "finite"),
            ("/entrain/carrier", [.string("fast")], "expects a number in Hz"),
            ("/entrain/carrier", [.float(300), .float(1), .float(2)], "3 arguments"),
            ("/entrain/carrier", [.float(300), .float(-1)], "glide time"),
            ("/entrain/mode", [.string("stereo")], "not one of binaural, monaural, isochronic"),
            ("/entrain/mode", [.float(7)], "not one of"),
            ("/entrain/beat", [.float(0.2)], ""),  // fine for binaural: must succeed, checked below
            ("/entrain/mode", [.string("isochronic")], "at least 0.5 Hz"),
            ("/entrain/volume/norm", [.string("x")], "expects a number 0–1"),
            ("/no/such/thing", [.float(1)], "unknown address"),
            ("/resume", [.string("now")], "takes no argument or one int, float or bool"),
            ("/resume", [.float(1), .float(1)], "takes no argument or one int, float or bool"),
            ("/osc/subscribe", [.float(70000)], "port must be"),
        ]
        for (address, arguments, reason) in cases {
            let actions = handle(address, arguments)
            if reason.isEmpty { XCTAssertEqual(actions, [], address); continue }
            guard case .error(let errorAddress, let text) = actions.first else { XCTFail("\(address) \(arguments): no error"); continue }
            XCTAssertEqual(errorAddress, address)
            XCTAssertTrue(text.contains(reason), "\(address): '\(text)' should say '\(reason)'")
        }
        var expected = before
        expected[try host.table.entry(for: "/entrain/beat").index] = Double(Float(0.2))  // it came as an OSC float
        XCTAssertEqual(host.values, expected, "only the one valid change happened")
    }

    /// Time-tagged messages land on the frame their time maps to.
    func testTimeTagsApplyOnTheirFrame() throws {
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        XCTAssertEqual(handle("/entrain/volume", [.float(0), .float(0)]), [])
        _ = renderer.renderStereo(frames: 256)
        let tag = OSCTimetag(unixTime: epoch + 12_345.0 / 48_000)  // frame 12,345 (not on a zero crossing)
        XCTAssertEqual(handle("/entrain/volume", [.float(1), .float(0)], at: tag), [])
        let (l, _) = renderer.renderStereo(frames: 24_000)
        let firstSound = l.firstIndex { $0 != 0 }.map { $0 + 256 }
        XCTAssertEqual(firstSound, 12_345 + 71, "frame 12,345 plus the limiter's 71-frame delay")
    }

    func testCommands() throws {
        XCTAssertEqual(handle("/ping", [.int32(7)]), [.reply(OSCMessage("/pong", [.int32(7)]))])
        XCTAssertEqual(handle("/status"), [.reply(OSCMessage("/status", [.string("running")]))])
        XCTAssertEqual(handle("/panic"), [])
        _ = OfflineRenderer(host: host).renderStereo(frames: 256)
        XCTAssertTrue(host.isPanicked)
        XCTAssertEqual(handle("/osc/subscribe", [.int32(9000)]), [.subscribe(port: 9000)])
        XCTAssertEqual(handle("/osc/subscribe"), [.subscribe(port: nil)])
    }
}
