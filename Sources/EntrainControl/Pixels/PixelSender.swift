import EntrainAddressSpace
import EntrainCore
import EntrainService
import Foundation
import Logging
import Synchronization

/// Sends the pixel outputs' frames, each at its own steady rate, from a thread of its own
/// (never the process thread). Each frame shows the moment being heard now: the analysis of
/// the sound that reaches the listener at this instant (the sound's latency and the light
/// offsets back from the frame playing now), the led port's light as its own fixture shows it.
/// Black on panic from the next frame and when the engine has not rendered for a while; every
/// frame passes the output's flash guard and heats its own thermal model; black frames (and
/// sACN's stream-terminated packets) when stopped.
public final class PixelSender: @unchecked Sendable {
    private let source: PixelLightSource
    private let logger: Logger
    private let socket: UDPSocket
    /// Only the sender's thread touches these once started.
    private var outputs: [PixelOutput]
    private var timeline = PixelTimeline()
    private let service = ServiceThread("entrain-pixels", paced: true)
    private let started = ServiceThread.monotonicNow()
    private var failures = 0
    /// Frames sent so far, all outputs together.
    public let framesSent = Atomic<Int>(0)

    public init(families: [PixelFamily], source: PixelLightSource, logger: Logger) throws {
        outputs = families.map(PixelOutput.init)
        self.source = source
        self.logger = logger
        socket = try UDPSocket(bind: SocketAddress(ip: 0, port: 0))
        var yes: Int32 = 1
        setsockopt(socket.fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    public func start() {
        let now = ServiceThread.monotonicNow()
        for i in outputs.indices { outputs[i].deadline = now }
        guard service.start({ [self] service in turn(service) }) else { return }
        for o in outputs {
            let spec = o.spec
            let universes = spec.wire == .ddp ? "" : ", universes \(spec.universe)–\(spec.universe + spec.universes - 1)"
            logger.info("pixels: '\(spec.name)', \(spec.pixels) pixels over \(spec.wire.rawValue) to \(spec.address)\(universes), \(Int(spec.rate)) frames/s")
        }
    }

    /// Stops the thread, then sends black frames (and sACN's stream-terminated packets). Safe to call twice.
    public func stop() {
        guard service.stop() else { return }
        for i in outputs.indices {
            var black = outputs[i].black
            outputs[i].guardian.apply(&black, at: ServiceThread.monotonicNow() - started, armed: false, force: true)
            for _ in 0..<2 { send(i, black) }
            if outputs[i].spec.wire == .sacn { for _ in 0..<3 { send(i, black, terminated: true) } }
        }
    }

    /// One turn: the frames due now, then the wait until the next one is.
    private func turn(_ service: ServiceThread) {
        source.take { timeline.append($0) }
        var now = ServiceThread.monotonicNow()
        for i in outputs.indices where outputs[i].deadline <= now {
            frame(i, at: now - started)
            let interval = 1 / outputs[i].spec.rate
            outputs[i].deadline += interval
            now = ServiceThread.monotonicNow()
            if outputs[i].deadline < now - interval { outputs[i].deadline = now }  // fell behind: no burst
        }
        service.wait(until: outputs.map(\.deadline).min() ?? now + 0.02)
    }

    /// One frame of output `i`.
    private func frame(_ i: Int, at time: Double) {
        let rate = source.sampleRate()
        var bytes = outputs[i].black
        var dark = true
        if !source.panicked(), rate > 0, let now = source.now(), let newest = timeline.newest, newest.frame > now - Int64(rate / 2) {
            let frames = { (ms: Double) in Int64((ms * rate / 1000).rounded()) }
            // A session's change for this output lands when its frame is heard.
            let lit = now - Int64(source.soundLatency()) - frames(source.lightOffsetMilliseconds())
            let settings = outputs[i].family.settings(at: lit, sampleRate: rate)
            let heard = lit - frames(settings.offsetMilliseconds)
            let ledSeen = now - Int64(source.portLatency()) - frames(settings.offsetMilliseconds)
            let periods = timeline.periods(after: outputs[i].shown, upTo: heard)
            outputs[i].shown = heard
            var bands = [Float](repeating: 0, count: PixelTapFrame.bandCount)
            for p in periods { for k in bands.indices { bands[k] = max(bands[k], p.bands[k]) } }
            let moment = PixelMoment(frame: heard, sampleRate: rate, bands: bands, led: timeline.led(at: ledSeen),
                                     beats: timeline.beats, onsets: timeline.onsets)
            let colors = outputs[i].effects.draw(moment, settings, time: time)
            let cap = min(PixelLightSource.thermalCaps[max(0, min(3, source.thermalState()))], Double(outputs[i].heat.cap))
            bytes = outputs[i].bytes(colors, gain: Float(settings.brightness * cap))
            dark = false
        }
        outputs[i].guardian.apply(&bytes, at: time, armed: source.armed(), force: dark)
        account(i, bytes)
        send(i, bytes)
    }

    /// Heats output `i`'s thermal model by the frame it sends, and says when its state moves.
    private func account(_ i: Int, _ bytes: [UInt8]) {
        let before = outputs[i].heat.state
        outputs[i].account(bytes)
        let after = outputs[i].heat.state
        guard after != before else { return }
        let level = after.rawValue > before.rawValue ? Logger.Level.warning : .info
        logger.log(level: level, "pixels: '\(outputs[i].spec.name)' thermal state \(after) (it has been bright for long: brightness capped at \(outputs[i].heat.cap))")
    }

    private func send(_ i: Int, _ bytes: [UInt8], terminated: Bool = false) {
        let address = outputs[i].spec.address
        for packet in outputs[i].wire.packets(bytes, terminated: terminated) where !socket.send(packet, to: address) {
            failures += 1
            if failures == 1 || failures % 1000 == 0 {
                logger.warning("pixels: cannot send to \(address): \(String(cString: strerror(errno))) (\(failures) failed)")
            }
        }
        outputs[i].framesSent += 1
        framesSent.add(1, ordering: .relaxed)
    }
}
