import EntrainAddressSpace
import EntrainCore
import EntrainService
import Foundation
import Logging
import Synchronization

/// Sends the light as DMX frames at a steady rate from a thread of its own (never the process
/// thread): each frame the values the ports show at the moment the light is seen, mapped to
/// channels; dark during a panic and when the engine has not rendered for a while, channels that
/// could flash dark until the strobe is armed; a blackout
/// frame (and sACN's stream-terminated packets) when stopped.
public final class DMXSender: @unchecked Sendable {
    private let family: DMXFamily
    private let source: DMXLightSource
    private let logger: Logger
    private let socket: UDPSocket
    /// Only the sender's thread touches the targets and the history once started.
    private var targets: [DMXTarget]
    private var history = LightHistory()
    private let service = ServiceThread("entrain-dmx", paced: true)
    /// When the next frame is due (CLOCK_MONOTONIC seconds; the thread's own).
    private var deadline = 0.0
    private var failures = 0
    /// Frames sent so far (all targets count as one).
    public let framesSent = Atomic<Int>(0)

    public init(targets: [DMXTarget], family: DMXFamily, source: DMXLightSource, logger: Logger) throws {
        self.targets = targets
        self.family = family
        self.source = source
        self.logger = logger
        socket = try UDPSocket(bind: SocketAddress(ip: 0, port: 0))
        var yes: Int32 = 1
        setsockopt(socket.fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))  // Art-Net to x.x.x.255
    }

    public func start() {
        deadline = ServiceThread.monotonicNow()
        guard service.start({ [self] service in frame(service) }) else { return }
        logger.info("DMX: \(targets.map(\.description).joined(separator: ", ")), universe \(family.settings.universe), \(ControlDescriptor.format(family.settings.rate)) frames/s")
    }

    /// Stops the thread, then sends a last, dark frame (and sACN's stream-terminated packets).
    /// Safe to call twice.
    public func stop() {
        guard service.stop() else { return }
        let settings = family.settings
        let dark = settings.map.channels(nil)
        send(dark, settings)
        for i in targets.indices where targets[i].kind == .sACN {
            for _ in 0..<3 { socket.send(targets[i].packet(dark, settings: settings, terminated: true), to: targets[i].address) }
        }
    }

    /// One turn: a frame, then the wait until the next one is due (at the rate set now).
    private func frame(_ service: ServiceThread) {
        let settings = family.settings
        send(channels(settings), settings)
        let interval = 1 / min(DMXSettings.rates.upperBound, max(DMXSettings.rates.lowerBound, settings.rate))
        deadline += interval
        let now = ServiceThread.monotonicNow()
        if deadline < now - interval { deadline = now }  // fell behind (a stall): no burst to catch up
        service.wait(until: deadline)
    }

    /// This frame's channels: the light at the moment it is seen (now, less the light port's
    /// own path, less the DMX offset), dark on panic or without fresh values.
    private func channels(_ settings: DMXSettings) -> [UInt8] {
        source.take { history.append($0) }
        let rate = source.sampleRate()
        guard !source.panicked(), rate > 0, let now = source.now(), let newest = history.newest,
              newest.frame > now - Int64(rate / 2) else { return settings.map.channels(nil) }
        let wanted = now - Int64(source.portLatency()) - Int64((settings.offsetMilliseconds * rate / 1000).rounded())
        return settings.map.channels(history.value(at: wanted)?.values, armed: source.armed())
    }

    private func send(_ channels: [UInt8], _ settings: DMXSettings) {
        for i in targets.indices {
            if !socket.send(targets[i].packet(channels, settings: settings), to: targets[i].address) {
                failures += 1
                if failures == 1 || failures % 1000 == 0 {
                    logger.warning("DMX: cannot send to \(targets[i].address): \(String(cString: strerror(errno))) (\(failures) failed)")
                }
            }
        }
        framesSent.add(1, ordering: .relaxed)
    }
}
