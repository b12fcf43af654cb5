import CJack
import EntrainCore
import EntrainEngine
import Foundation
import Synchronization

extension JackClient {
    /// The MIDI output's port name.
    public static let midiOutName = "midi_out"
    public static let midiInName = "midi_in"

    /// Control side: where the phrase grid's beats fall (a beat's engine frame and a beat's length
    /// in frames), for the MIDI clock while nothing is found on beat_in.
    public func publishPhraseBeats(frame: Int64, periodFrames: Double) {
        context.pointee.gridPair.write(UInt64(bitPattern: frame), periodFrames.bitPattern)
    }

    /// Before deactivating: one last period stops the MIDI clock and ends every sounding note (a
    /// drum machine following us stops, no synth is left holding a note). Waits at most 100 ms.
    func endMIDI() {
        guard context.pointee.midiOut != nil, context.pointee.beatMIDI != nil else { return }
        context.pointee.midiEnding.store(1, ordering: .releasing)
        for _ in 0..<100 where context.pointee.midiEnding.load(ordering: .acquiring) != 2 { usleep(1000) }
    }

    /// Control side: what came in on midi_in since the last call, oldest first.
    public func takeMIDIInput(_ body: (MIDIInEvent) -> Void) {
        while let event = context.pointee.midiInRing.pointee.popFirst() { body(event) }
    }

    /// midi_out with the clock and notes' state when asked for, and the timebase master (on each
    /// open of a handle).
    func registerMIDI(_ client: OpaquePointer, metadata: inout PortMetadata) throws {
        context.pointee.midiOut = nil
        context.pointee.midiEnding.store(0, ordering: .relaxed)
        context.pointee.midiIn = nil
        context.pointee.beatMIDI = nil
        context.pointee.transport = TransportTempo()
        context.pointee.flywheel = ClockFlywheel()
        context.pointee.lastDetected = (Int64.min / 2, 0, 0)
        context.pointee.midiFollowsTransport = options.midiFollowsTransport
        context.pointee.midiFollowsLink = options.midiFollowsLink
        context.pointee.timebaseMaster = options.timebase
        if options.timebase { becomeTimebaseMaster(client) }
        if options.midiIn {
            guard let port = jack_port_register(client, Self.midiInName, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue | JackPortIsTerminal.rawValue), 0) else {
                throw JackError.cannotRegister(port: Self.midiInName)
            }
            context.pointee.midiIn = port
        }
        guard let settings = options.midi else { return }
        guard let port = jack_port_register(client, Self.midiOutName, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue | JackPortIsTerminal.rawValue), 0) else {
            throw JackError.cannotRegister(port: Self.midiOutName)
        }
        metadata.set(port, JACK_METADATA_PRETTY_NAME, "MIDI Clock and Beat Notes")
        context.pointee.beatMIDI = BeatMIDI(settings: settings, sampleRate: Double(jack_get_sample_rate(client)))
        context.pointee.midiOut = port
    }

    /// Conditionally: a DAW already master keeps the role (logged).
    private func becomeTimebaseMaster(_ client: OpaquePointer) {
        let code = jack_set_timebase_callback(client, 1, { _, _, position, newPosition, arg in
            guard let position else { return }
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.transport.fill(position, newPosition: newPosition != 0)
        }, UnsafeMutableRawPointer(context))
        if code == EBUSY {
            logger.warning("--timebase: another client is JACK's timebase master; not taking over")
        } else if code != 0 {
            logger.warning("--timebase: JACK refused the timebase callback (\(code))")
        } else {
            logger.info("timebase master: bars and beats at the tempo found on beat_in (120 BPM until one is)")
        }
    }
}
