import CJack
import EntrainEngine

extension JackClient {
    /// The MIDI output's port name.
    public static let midiOutName = "midi_out"

    /// midi_out, with the clock and notes' state, when asked for (on each open of a handle).
    func registerMIDI(_ client: OpaquePointer) throws {
        context.pointee.midiOut = nil
        context.pointee.beatMIDI = nil
        guard let settings = options.midi else { return }
        guard let port = jack_port_register(client, Self.midiOutName, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue | JackPortIsTerminal.rawValue), 0) else {
            throw JackError.cannotRegister(port: Self.midiOutName)
        }
        if jack_set_property(client, jack_port_uuid(port), JACK_METADATA_PRETTY_NAME, "MIDI Clock and Beat Notes", "text/plain") != 0 {
            logger.warning("could not set JACK metadata on \(Self.midiOutName)")
        }
        context.pointee.beatMIDI = BeatMIDI(settings: settings, sampleRate: Double(jack_get_sample_rate(client)))
        context.pointee.midiOut = port
    }
}
