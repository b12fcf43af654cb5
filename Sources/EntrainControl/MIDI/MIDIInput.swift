import EntrainAddressSpace
import EntrainCore
import EntrainService
import Foundation
import Logging

/// Takes what came in on midi_in every 2 ms (on a thread of its own) and applies it to the
/// address space through the MIDI family: bound controllers, learning, notes, and the commands
/// bound controllers and program changes press (through the router, as a mapping).
public final class MIDIInput: @unchecked Sendable {
    private let family: MIDIFamily
    private let space: AddressSpace
    /// What runs a command a controller or a program change presses (nil: commands are refused).
    private let router: OSCRouter?
    private let take: @Sendable ((MIDIInEvent) -> Void) -> Void
    private let logger: Logger
    private let service = ServiceThread("entrain-midi-in", every: 0.002)

    public init(family: MIDIFamily, space: AddressSpace, router: OSCRouter? = nil, logger: Logger,
                take: @escaping @Sendable ((MIDIInEvent) -> Void) -> Void) {
        self.family = family
        self.space = space
        self.router = router
        self.take = take
        self.logger = logger
    }

    public func start() {
        service.start { [self] _ in
            var events: [MIDIInEvent] = []
            take { events.append($0) }
            for event in events { apply(event) }
        }
    }

    public func stop() { service.stop() }

    private func apply(_ event: MIDIInEvent) {
        let outcome = family.outcome(of: event)
        if let learned = outcome.learned { logger.notice("MIDI learn: \(learned)") }
        // Through the same door as any mapping: a person's decision is refused here too.
        for call in outcome.calls {
            guard let actions = router?.perform(call.address, call.arguments, door: .mapping) else {
                logger.warning("MIDI in: \(call.address): commands are not available here")
                continue
            }
            for case .error(let address, let reason) in actions { logger.warning("MIDI in: \(address): \(reason)") }
        }
        guard !outcome.changes.isEmpty else { return }
        do { try space.set(outcome.changes, from: .mapping) } catch { logger.warning("MIDI in: \(error)") }
    }
}
