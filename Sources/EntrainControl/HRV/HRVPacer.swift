import EntrainAddressSpace
import Foundation
import Logging
import Synchronization

/// A breathing guide on the light and haptic outputs: its targets (by default `/led/manual`
/// and `/haptic/intensity`, whose manual sources must be on) swell up over half a breath and
/// down over the other half, as engine glides, at a set rate or at the measured breathing rate.
/// Something to follow if the person wants to, never a prescription. Its own thread; off by
/// default. Turned off, it gives its targets back the values they held before it started (and
/// those are what the last-used settings keep while it runs).
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
        /// The targets' values when the pacer took them, given back when it stops.
        var before: [(address: String, value: ControlValue)] = []
    }

    private let shared = Mutex(Shared())
    private let running = Atomic<Bool>(true)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func attach(_ space: AddressSpace, rate: @escaping @Sendable () -> Double?) {
        shared.withLock { $0.space = space; $0.measured = rate }
    }

    func update(_ settings: Settings) {
        let space = shared.withLock { s -> AddressSpace? in
            s.settings = settings
            guard settings.on, !s.thread else { return nil }
            s.thread = true
            return s.space
        }
        guard let space else { return }
        let before = settings.targets.compactMap { target in (try? space.value(of: target)).map { (address: target, value: $0) } }
        shared.withLock { $0.before = before }
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
                if let space { giveBack(in: space) }
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

    /// `snapshot` with the pacer's targets at the values they held before it started, while it runs.
    func beforePacing(_ snapshot: [(address: String, value: ControlValue)]) -> [(address: String, value: ControlValue)] {
        let before = shared.withLock { $0.thread ? $0.before : [] }
        return snapshot.map { entry in before.last { $0.address == entry.address }.map { (address: entry.address, value: $0.value) } ?? entry }
    }

    /// The targets back to what they held before the pacer started, over half a second.
    private func giveBack(in space: AddressSpace) {
        let before = shared.withLock { s in defer { s.before = [] }; return s.before }
        do {
            try space.set(before.map { target in
                ControlChange(target.address, target.value, glide: space.lookup(target.address)?.descriptor.glideSeconds == nil ? nil : 0.5)
            }, from: .mapping)
        } catch {
            logger.warning("HRV pacer: \(error)")
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
