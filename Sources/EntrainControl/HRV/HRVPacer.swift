import EntrainAddressSpace
import EntrainService
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
        /// The pacer's thread while it paces and while it gives the targets back (nil: none); it
        /// ends itself when turned off.
        var service: ServiceThread?
        /// Whether this half-breath swells up (the thread's turns alternate).
        var rising = true
        /// Stopped for good (the client is ending): never paces again.
        var stopped = false
        /// The targets' values when the pacer took them, given back when it stops.
        var before: [(address: String, value: ControlValue)] = []
    }

    private let shared = Mutex(Shared())
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func attach(_ space: AddressSpace, rate: @escaping @Sendable () -> Double?) {
        shared.withLock { $0.space = space; $0.measured = rate }
    }

    /// New settings: a running pacer is woken to follow them; turned on, a pacer starts.
    func update(_ settings: Settings) {
        let start = shared.withLock { s -> (AddressSpace, ServiceThread)? in
            s.settings = settings
            if let running = s.service {
                running.wake()
                return nil
            }
            guard settings.on, !s.stopped, let space = s.space else { return nil }
            let service = ServiceThread("entrain-pacer")
            s.service = service
            s.rising = true
            return (space, service)
        }
        guard let (space, service) = start else { return }
        let before = settings.targets.compactMap { target in (try? space.value(of: target)).map { (address: target, value: $0) } }
        shared.withLock { $0.before = before }
        service.start { [self] service in breathe(service) }
    }

    /// For good (the client is ending): the thread stops within its wait, the targets stay.
    func stop() {
        shared.withLock { s in
            s.stopped = true
            defer { s.service = nil }
            return s.service
        }?.stop()
    }

    /// The rate the swell follows now, breaths per minute.
    func currentRate(_ settings: Settings, measured: Double?) -> Double {
        let rate = settings.rate > 0 ? settings.rate : measured ?? Self.fallbackRate
        return min(Self.rates.upperBound, max(Self.rates.lowerBound, rate))
    }

    /// One half-breath: the targets glide up (or down) over it, unless the settings changed
    /// meanwhile (`update` wakes the wait). Turned off, the pacer gives the targets back and ends.
    private func breathe(_ service: ServiceThread) {
        let (settings, space, measured, ending, rising) = shared.withLock { s in
            defer { s.rising.toggle() }
            return (s.settings, s.space, s.measured, !s.settings.on || s.space == nil, s.rising)
        }
        guard !ending, let space else { return finish(service, space: space) }
        let half = 30 / currentRate(settings, measured: measured?())
        set(settings.targets, to: rising ? settings.depth : 0, glide: half, in: space)
        let end = ServiceThread.monotonicNow() + half
        while service.wait(until: end), ServiceThread.monotonicNow() < end {
            if shared.withLock({ $0.settings != settings }) { return }
        }
    }

    /// `snapshot` with the pacer's targets at the values they held before it started, while it runs.
    func beforePacing(_ snapshot: [(address: String, value: ControlValue)]) -> [(address: String, value: ControlValue)] {
        let before = shared.withLock { $0.service != nil ? $0.before : [] }
        return snapshot.map { entry in before.last { $0.address == entry.address }.map { (address: entry.address, value: $0.value) } ?? entry }
    }

    /// Turned off: the targets back to what they held before the pacer started; then, unless it
    /// was turned on again meanwhile (it paces on from those values, which stay its `before`),
    /// the thread ends. It stays the pacer's thread until then, so `update` only wakes it and
    /// `stop` joins it: no second thread takes the targets while they are given back.
    private func finish(_ service: ServiceThread, space: AddressSpace?) {
        if let space { giveBack(shared.withLock { $0.before }, in: space) }
        let ends = shared.withLock { s in
            let ends = !s.settings.on || s.space == nil || s.stopped
            if ends {
                s.service = nil
                s.before = []
            } else {
                s.rising = true
            }
            return ends
        }
        if ends { service.end() }
    }

    /// The targets back to `before`, over half a second.
    private func giveBack(_ before: [(address: String, value: ControlValue)], in space: AddressSpace) {
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
