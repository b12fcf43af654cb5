import Foundation
import TestSupport
import XCTest

/// DMX from the live client on a private dummy jackd to receivers written in the tests (real
/// UDP on loopback): the rate, the values of /led/manual to the bit, the strobe's pattern,
/// panic, disarming, and the last frames on exit.
final class DMXLiveTests: LiveClientTestCase {
    /// Frames per second over the frames received (arrival times on the receiver's clock).
    func rate(_ frames: [ReceivedDMX]) -> Double { framesPerSecond(arrivals: frames.map(\.arrival)) }

    func testArtNetFollowsTheManualLevelExactlyAtTheSetRate() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--artnet", "127.0.0.1:\(receiver.port)", "--dmx-universe", "300",
                                                 "--dmx-map", "1=led,2=led:16,4=200,5=led*0.5",
                                                 "--set", "/led/source/manual=1"], recorder: rec)
        try rec.connect(["entrain:led"])
        for level in [0.2, 0.6, 1.0, 0.0, 0.35] {
            osc.send("/led/manual", [.float(Float(level)), .float(0)])
            let coarse = UInt8((Double(Float(level)) * 255).rounded()), wide = Int((Double(Float(level)) * 65535).rounded())
            XCTAssertTrue(receiver.wait { $0.last.map { $0.channels[0] == coarse } ?? false }, "channel 1 reaches \(coarse)")
            usleep(100_000)
            let frame = try XCTUnwrap(receiver.received.frames.last)
            XCTAssertEqual(frame.channels[0], coarse, "8-bit at \(level)")
            XCTAssertEqual(Int(frame.channels[1]) << 8 | Int(frame.channels[2]), wide, "16-bit at \(level)")
            XCTAssertEqual(frame.channels[3], 200, "a fixed level")
            XCTAssertEqual(frame.channels[4], UInt8((Double(Float(level)) * 0.5 * 255).rounded()), "gain 0.5")
            XCTAssertEqual(frame.universe, 300)
            // The CV port shows the same value.
            XCTAssertEqual(try rec.record()[0].last!, Float(level), accuracy: 1e-6)
        }
        receiver.clear()
        usleep(2_000_000)
        let steady = receiver.received
        XCTAssertEqual(steady.invalid, 0)
        XCTAssertEqual(rate(steady.frames), 40, accuracy: 1.5, "frames per second at the default rate")
        let gaps = zip(steady.frames, steady.frames.dropFirst()).map { ($1.arrival - $0.arrival) * 1000 }.sorted()
        print(String(format: "DMX live: %.2f frames/s over %d frames, gap median %.2f ms, p1 %.2f ms, p99 %.2f ms", rate(steady.frames),
                     steady.frames.count, gaps[gaps.count / 2], gaps[gaps.count / 100], gaps[gaps.count * 99 / 100]))
        XCTAssertTrue(zip(steady.frames, steady.frames.dropFirst()).allSatisfy { $1.sequence == ($0.sequence == 255 ? 1 : $0.sequence + 1) },
                      "sequence numbers count 1…255 with none lost")
        osc.send("/dmx/rate", [.float(20)])
        XCTAssertNotNil(osc.request("/dmx/rate"))
        XCTAssertNotNil(osc.request("/dmx/rate", [.float(50)], reply: "/error"), "never above 44 frames a second")
        usleep(200_000)
        receiver.clear()
        usleep(2_000_000)
        XCTAssertEqual(rate(receiver.received.frames), 20, accuracy: 1, "frames per second after /dmx/rate 20")
        stopClient(client)
        let last = try XCTUnwrap(receiver.received.frames.last)
        XCTAssertEqual(last.channels.max(), 0, "a blackout frame on exit, fixed levels too")
    }

    func testAStrobeKeepsItsRateAndDutyWithinOneRefreshAndPanicDarkensTheNextFrame() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let (client, _, osc) = try startWithOSC(["--artnet", "127.0.0.1:\(receiver.port)", "--dmx-map", "1=led",
                                                 "--arm-strobe", "--mode", "isochronic", "--beat", "2",
                                                 "--set", "/led/duty=0.5", "--set", "/led/edge=0"], recorder: rec)
        usleep(500_000)
        receiver.clear()
        usleep(4_000_000)
        let frames = receiver.received.frames
        // Rising and falling edges of channel 1, by arrival time.
        var rises: [Double] = [], falls: [Double] = []
        for (a, b) in zip(frames, frames.dropFirst()) {
            if a.channels[0] < 128 && b.channels[0] >= 128 { rises.append(b.arrival) }
            if a.channels[0] >= 128 && b.channels[0] < 128 { falls.append(b.arrival) }
        }
        XCTAssertGreaterThanOrEqual(rises.count, 6, "a 2 Hz strobe over 4 s")
        let refresh = 1.0 / 40
        for (a, b) in zip(rises, rises.dropFirst()) { XCTAssertEqual(b - a, 0.5, accuracy: refresh + 0.005, "flash period") }
        for rise in rises {
            if let fall = falls.first(where: { $0 > rise }) { XCTAssertEqual(fall - rise, 0.25, accuracy: refresh + 0.005, "on-time") }
        }
        XCTAssertTrue(frames.allSatisfy { $0.channels[0] == 0 || $0.channels[0] == 255 }, "a square strobe without edges: on or off")

        // Panic: at most the frame already on its way may still be lit. Frames are taken as after
        // the panic by the kernel's stamp of their arrival, not by when the receiver's thread got
        // to them: on a loaded machine it reads late, and frames sent before the panic counted
        // as after it (four lit once, with a busy loop beside the suite).
        XCTAssertTrue(receiver.wait { $0.last.map { $0.channels[0] == 255 } ?? false }, "lit before the panic")
        let sent = arrivalClockNow()
        osc.send("/panic", [.int32(1)])
        // 24 frames: "dark while the panic holds" spans more than the strobe's period (0.5 s),
        // not just 6 frames that its own dark half (a quarter second) could account for.
        XCTAssertTrue(receiver.wait { $0.filter { $0.arrival > sent }.count >= 24 })
        let after = receiver.received.frames.filter { $0.arrival > sent }
        let lit = after.prefix { $0.channels[0] != 0 }.count
        XCTAssertLessThanOrEqual(lit, 1, "dark from the next frame after /panic")
        XCTAssertTrue(after.dropFirst(lit).allSatisfy { $0.channels[0] == 0 }, "dark while the panic holds")
        stopClient(client)
    }

    func testSACNCarriesUniversePriorityAndSequenceAndTerminatesTheStreamOnExit() throws {
        let receiver = try DMXTestReceiver(.sACN)
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        // Armed: a channel on a haptic port is dark until the strobe is (it could flash).
        let (client, _, osc) = try startWithOSC(["--sacn", "127.0.0.1:\(receiver.port)", "--dmx-universe", "7", "--arm-strobe",
                                                 "--dmx-map", "1=led,3=haptic_intensity:16",
                                                 "--set", "/led/source/manual=1", "--set", "/led/manual=0.8",
                                                 "--set", "/haptic/source=manual", "--set", "/haptic/intensity=0.5", "--set", "/haptic/level=1"], recorder: rec)
        osc.send("/dmx/priority", [.int32(150)])
        XCTAssertNotNil(osc.request("/dmx/priority"), "a query after the set")
        XCTAssertTrue(receiver.wait { $0.last.map { $0.priority == 150 && $0.channels[0] == 204 } ?? false }, "priority 150, led 0.8")
        let frame = try XCTUnwrap(receiver.received.frames.last)
        XCTAssertEqual(frame.universe, 7)
        XCTAssertEqual(frame.sourceName, "entrain")
        XCTAssertEqual(Int(frame.channels[2]) << 8 | Int(frame.channels[3]), 32768, "haptic intensity 0.5 in 16 bits")
        let frames = receiver.received.frames
        XCTAssertTrue(zip(frames, frames.dropFirst()).allSatisfy { $1.sequence == ($0.sequence + 1) % 256 }, "sequence 0…255, none lost")
        stopClient(client)
        let tail = receiver.received.frames.suffix(4)
        XCTAssertEqual(tail.count, 4)
        XCTAssertFalse(tail.first!.terminated)
        XCTAssertEqual(tail.first!.channels.max(), 0, "a blackout frame")
        XCTAssertTrue(tail.dropFirst().allSatisfy { $0.terminated && $0.channels.max() == 0 }, "then three stream-terminated packets")
    }

    /// --sacn-multicast: frames reach a receiver in the universe's group (239.255.0.9 for
    /// universe 9) on port 5568. The sender picks no interface: the kernel routes the group (on
    /// this VM through eth0; lo has no MULTICAST flag, and a receiver joined on lo alone gets
    /// nothing), and the receiver, joined on the same route, gets them by IP_MULTICAST_LOOP.
    func testSACNMulticastReachesAReceiverInTheUniversesGroup() throws {
        let receiver: DMXTestReceiver
        do {
            receiver = try DMXTestReceiver.multicast(group: "239.255.0.9", port: 5568)
        } catch let error as DMXTestReceiver.MulticastUnavailable {
            throw XCTSkip("this machine cannot carry multicast to itself: \(error)")
        }
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 0.2)
        let client = try startClient(["--sacn-multicast", "--dmx-universe", "9", "--dmx-map", "1=led,2=77",
                                      "--set", "/led/source/manual=1", "--set", "/led/manual=0.6"], recorder: rec)
        XCTAssertTrue(receiver.wait { $0.filter { $0.universe == 9 && $0.channels[0] == 153 }.count >= 20 },
                      "frames in the group with led 0.6: \(receiver.received.frames.count) received")
        let frames = receiver.received.frames.filter { $0.universe == 9 }
        XCTAssertEqual(frames.last?.channels[1], 77, "the fixed level")
        let refresh = rate(frames)
        XCTAssertEqual(refresh, 40, accuracy: 4, "the refresh, over the multicast group")
        stopClient(client)
        XCTAssertTrue(receiver.wait { $0.suffix(3).allSatisfy { $0.terminated } }, "the stream ends in the group too")
        print(String(format: "sACN multicast: %d frames at %.1f frames/s in 239.255.0.9", frames.count, refresh))
    }

    func testADisarmedStrobeIsDarkOnDMXAsOnThePort() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let rec = try recorder(channels: 1, seconds: 1)
        let client = try startClient(["--artnet", "127.0.0.1:\(receiver.port)", "--dmx-map", "1=led,2=9",
                                      "--mode", "isochronic", "--beat", "10"], recorder: rec)
        try rec.connect(["entrain:led"])
        usleep(300_000)
        receiver.clear()
        let port = try rec.record()[0]
        stopClient(client)
        let frames = receiver.received.frames
        XCTAssertGreaterThan(frames.count, 20)
        XCTAssertEqual(port.max(), 0, "the port is dark while disarmed")
        XCTAssertEqual(frames.map { $0.channels[0] }.max(), 0, "and so is the DMX channel")
        XCTAssertEqual(frames.dropLast().map { $0.channels[1] }.min(), 9, "the fixed level is there all along")
    }
}
