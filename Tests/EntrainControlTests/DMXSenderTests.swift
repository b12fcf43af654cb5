import EntrainAddressSpace
@testable import EntrainControl
import EntrainCore
import Logging
import Synchronization
import TestSupport
import XCTest

/// The DMX sender on its own thread, fed by a made-up light source with a fixed clock, sending
/// to a receiver on real UDP: which period's values it shows for the frame being seen, and when
/// it is dark.
final class DMXSenderTests: XCTestCase {
    /// A light source whose periods carry their own frame number as the led value (÷ 100,000).
    final class FakeLight: @unchecked Sendable {
        let queued = Mutex<[LightTapFrame]>([])
        let now = Atomic<Int>(0)
        let panic = Atomic<Bool>(false)
        let portLatency = Atomic<Int>(0)
        let armed = Atomic<Bool>(false)

        func queue(periodsUpTo last: Int64, period: Int64 = 256) {
            queued.withLock { list in
                var f: Int64 = period - 1
                while f <= last {
                    var v = InlineArray<10, Float>(repeating: 0)
                    v[0] = Float(f) / 100_000
                    list.append(LightTapFrame(frame: f, values: v))
                    f += period
                }
            }
        }

        var source: DMXLightSource {
            DMXLightSource(take: { body in for f in self.queued.withLock({ l in defer { l.removeAll() }; return l }) { body(f) } },
                           now: { Int64(self.now.load(ordering: .relaxed)) }, portLatency: { self.portLatency.load(ordering: .relaxed) },
                           sampleRate: { 48_000 }, panicked: { self.panic.load(ordering: .relaxed) },
                           armed: { self.armed.load(ordering: .relaxed) })
        }
    }

    /// A channel on the haptic envelope (which swings at the entrainment's 4–12 Hz) stays dark
    /// until the strobe is armed; a channel on the LED port (gated by the engine) shows its value.
    func testAChannelThatCouldFlashIsDarkWhileDisarmed() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let light = FakeLight()
        light.queued.withLock { list in
            for k in 1...200 {
                var v = InlineArray<10, Float>(repeating: 0)
                v[0] = 0.5                          // led: a steady level
                v[8] = k % 2 == 0 ? 1 : 0           // haptic_intensity: swinging every period
                list.append(LightTapFrame(frame: Int64(k * 256 - 1), values: v))
            }
        }
        light.now.store(200 * 256, ordering: .relaxed)
        var settings = DMXSettings()
        settings.map = try DMXChannelMap(parsing: "1=led,2=haptic_intensity")
        let sender = try DMXSender(targets: [DMXTarget(.artNet, address: SocketAddress(ip: 0x7F00_0001, port: UInt16(receiver.port)))],
                                   family: DMXFamily(settings), source: light.source, logger: Logger(label: "test"))
        sender.start()
        defer { sender.stop() }
        XCTAssertTrue(receiver.wait { $0.count >= 10 })
        let disarmed = receiver.received.frames
        XCTAssertEqual(disarmed.last?.channels[0], 128, "the LED port's steady level shows")
        XCTAssertEqual(disarmed.map { $0.channels[1] }.max(), 0, "the haptic channel stays dark while disarmed")
        light.armed.store(true, ordering: .relaxed)
        XCTAssertTrue(receiver.wait { $0.last?.channels[1] == 255 }, "armed: the haptic channel shows its value")
    }

    func latest16(_ receiver: DMXTestReceiver) -> Int? {
        receiver.received.frames.last.map { Int($0.channels[0]) << 8 | Int($0.channels[1]) }
    }

    /// The 16-bit value of the period ending at `frame`.
    func expected(_ frame: Int64) -> Int { Int((Double(Float(frame) / 100_000) * 65535).rounded()) }

    func testTheValueShownIsThePeriodPlayingNowLessThePortsLatencyAndTheOffset() throws {
        let receiver = try DMXTestReceiver(.artNet)
        defer { receiver.stop() }
        let light = FakeLight()
        light.queue(periodsUpTo: 40_000)
        light.now.store(40_000, ordering: .relaxed)
        var settings = DMXSettings()
        settings.map = try DMXChannelMap(parsing: "1=led:16")
        let family = DMXFamily(settings)
        let sender = try DMXSender(targets: [DMXTarget(.artNet, address: SocketAddress(ip: 0x7F00_0001, port: UInt16(receiver.port)))],
                                   family: family, source: light.source, logger: Logger(label: "test"))
        sender.start()
        defer { sender.stop() }

        // Now (frame 40,000): the last period ending at or before it, 39,935.
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == self.expected(39_935) }, "\(String(describing: latest16(receiver)))")
        // The led port's own path (1,000 frames) and the DMX offset (100 ms: 4,800 frames) look further back.
        light.portLatency.store(1_000, ordering: .relaxed)
        try family.set([ControlChange("/dmx/offset", .number(100))], at: nil)
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == self.expected(34_047) }, "40,000 − 5,800 = 34,200 → the period ending at 34,047")
        // A negative offset asks for the future: the newest rendered period.
        try family.set([ControlChange("/dmx/offset", .number(-200))], at: nil)
        light.portLatency.store(0, ordering: .relaxed)
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == self.expected(39_935) })
        // Panic: dark at once, whatever the delay; back after.
        light.panic.store(true, ordering: .relaxed)
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == 0 })
        light.panic.store(false, ordering: .relaxed)
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == self.expected(39_935) })
        // No fresh periods for more than half a second of frames (the server gone): dark.
        light.now.store(40_000 + 30_000, ordering: .relaxed)
        XCTAssertTrue(receiver.wait { _ in self.latest16(receiver) == 0 }, "stale light is dark")
        sender.stop()
        XCTAssertEqual(receiver.received.frames.last?.channels.max(), 0, "blackout on stop")
    }
}
