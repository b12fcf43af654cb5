import EntrainAddressSpace
import EntrainCore
import Foundation
import Logging
import Synchronization

/// Takes what came in on midi_in every 2 ms (on a thread of its own) and applies it to the
/// address space through the MIDI family: bound controllers, learning, notes.
public final class MIDIInput: @unchecked Sendable {
    private let family: MIDIFamily
    private let space: AddressSpace
    private let take: @Sendable ((MIDIInEvent) -> Void) -> Void
    private let logger: Logger
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    public init(family: MIDIFamily, space: AddressSpace, logger: Logger, take: @escaping @Sendable ((MIDIInEvent) -> Void) -> Void) {
        self.family = family
        self.space = space
        self.take = take
        self.logger = logger
    }

    public func start() {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                var events: [MIDIInEvent] = []
                take { events.append($0) }
                for event in events { apply(event) }
                usleep(2_000)
            }
            finished.signal()
        }
        thread.name = "entrain-midi-in"
        thread.start()
    }

    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    private func apply(_ event: MIDIInEvent) {
        let (changes, learned) = family.changes(for: event)
        if let learned { logger.notice("MIDI learn: \(learned)") }
        guard !changes.isEmpty else { return }
        do { try space.set(changes, from: .mapping) } catch { logger.warning("MIDI in: \(error)") }
    }
}
