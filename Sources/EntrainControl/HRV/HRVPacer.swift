import EntrainAddressSpace
import Foundation
import Logging
import Synchronization

/// A breathing guide on the light and haptic outputs: its targets (by default `/led/manual`
/// and `/haptic/intensity`, whose manual sources must be on) swell up over half a breath and
/// down over the other half, as engine glides, at a set rate or at the measured breathing rate.
/// Something to follow if the person wants to, never a prescription. Its own thread; off by
/// default.
final class HRVPacer: Sendable {
    struct Settings: Sendable, Equatable {
        var on = false
        /// Breaths per minute; 0 follows the measured rate (6 until there is one).
        var rate = 6.0
        /// The swell's top as a fader position of each target (its bottom is 0).
        var depth = 1.0
        var targets = ["/led/manual", "/haptic/intensity"]
    }

    static let rates = 3.0...20.0
    static let fallbackRate = 6.0

    private struct Shared {
        var settings = Settings()
        var space: AddressSpace?
        var measured: (@Sendable () -> Double?)?
        var thread = false
    }

    private let shared = Mutex(Shared())
    private let running = Atomic<Bool>(true)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func attach(_ space: AddressSpace, rate: @escaping @Sendable () -> Double?) {
        shared.withLock { $0.space = space; $0.measured = rate }
    }

    func update(_ settings: Settings) {
        let start = shared.withLock { s -> Bool in
            s.settings = settings
            guard settings.on, !s.thread else { return false }
            s.thread = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in loop() }
        thread.name = "entrain-hrv-pacer"
        thread.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }

    /// The rate the swell follows now, breaths per minute.
    func currentRate(_ settings: Settings, measured: Double?) -> Double {
        let rate = settings.rate > 0 ? settings.rate : measured ?? Self.fallbackRate
        return min(Self.rates.upperBound, max(Self.rates.lowerBound, rate))
    }

    private func loop() {
        var rising = true
        while running.load(ordering: .relaxed) {
            // Deciding to end and saying so happen under one lock, so a pacer turned on again
            // meanwhile starts a new thread.
            let (settings, space, measured, ending) = shared.withLock { s in
                let ending = !s.settings.on || s.space == nil
                if ending { s.thread = false }
                return (s.settings, s.space, s.measured, ending)
            }
            guard !ending, let space else {
                if let space { set(settings.targets, to: 0, glide: 0.5, in: space) }
                return
            }
            let half = 30 / currentRate(settings, measured: measured?())
            set(settings.targets, to: rising ? settings.depth : 0, glide: half, in: space)
            rising.toggle()
            let end = OSCServer.now() + half
            while OSCServer.now() < end && running.load(ordering: .relaxed) {
                if shared.withLock({ $0.settings != settings }) { break }
                usleep(20_000)
            }
        }
    }

    private func set(_ targets: [String], to position: Double, glide: Double, in space: AddressSpace) {
        do {
            let changes = try targets.map { target -> ControlChange in
                guard let (_, descriptor) = space.lookup(target) else { throw ControlError.unknown(target) }
                return ControlChange(target, try descriptor.value(fromNormalized: position), glide: descriptor.glideSeconds == nil ? nil : glide)
            }
            try space.set(changes, from: .mapping)
        } catch {
            logger.warning("HRV pacer: \(error)")
        }
    }
}
