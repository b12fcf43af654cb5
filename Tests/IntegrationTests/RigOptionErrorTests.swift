import Foundation
import TestSupport
import XCTest

/// Bad DMX and MIDI options: a clear message and the usage exit code before anything starts.
final class RigOptionErrorTests: XCTestCase {
    func testBadDMXAndMIDIOptionsAreRefusedWithTheirReason() throws {
        let cases: [([String], String)] = [
            (["--dmx-map", "1=lamp"], "DMX map entry '1=lamp': unknown source 'lamp'"),
            (["--dmx-map", "1=led,1=led_2"], "channel 1 is already mapped"),
            (["--artnet", "node.local"], "--artnet expects an IPv4 address"),
            (["--sacn", "10.0.0.1:99999"], "--sacn expects an IPv4 address"),
            (["--sacn", "10.0.0.1", "--dmx-universe", "0"], "sACN universes run 1 to 63999"),
            (["--artnet", "10.0.0.1", "--dmx-universe", "40000"], "Art-Net port addresses run 0 to 32767"),
            (["--dmx-rate", "50"], "--dmx-rate must be 1 to 44"),
            (["--midi-channel", "17"], "--midi-channel must be 1 to 16"),
            (["--midi-beat-note", "128"], "--midi-beat-note must be 0 to 127"),
            (["--midi-clock-source", "grid"], "--midi-clock-source must be beat, transport or link"),
            (["--set", "/dmx/map=1=nothing"], "DMX map entry '1=nothing'"),
        ]
        for (arguments, reason) in cases {
            let result = try EntrainBinary.run(["run", "--no-restore", "--server", "no-such-server-\(getpid())"] + arguments,
                                               environment: ["JACK_NO_START_SERVER": "1"])
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.error.contains(reason), "\(arguments): \(result.error)")
        }
    }
}
