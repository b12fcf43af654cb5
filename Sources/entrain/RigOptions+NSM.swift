import ArgumentParser
import EntrainControl

/// The DMX and MIDI options as arguments again, so a session manager's saved state can carry
/// them: it starts us with no arguments, and the rig must come back as it was.
extension DMXOptions {
    var arguments: [String] {
        var out: [String] = artNet.flatMap { ["--artnet", $0] }
        out += sACN.flatMap { ["--sacn", $0] }
        if sACNMulticast { out.append("--sacn-multicast") }
        out += ["--dmx-universe", String(universe)]
        if let map { out += ["--dmx-map", map] }
        if let rate { out += ["--dmx-rate", String(rate)] }
        return out
    }
}

extension MIDIOptions {
    var arguments: [String] {
        var out: [String] = clock ? ["--midi-clock"] : []
        out += ["--midi-clock-source", source]
        if timebase { out.append("--timebase") }
        if input { out.append("--midi-in") }
        out += ["--midi-channel", String(channel), "--midi-beat-note", String(beatNote), "--midi-onset-note", String(onsetNote)]
        return out
    }
}

extension Run {
    /// Under NSM, the options saved with the session, unless the command line gives its own.
    static func rigOptions(stored: NSMState?, given dmx: DMXOptions, _ midi: MIDIOptions) throws -> (DMXOptions, MIDIOptions) {
        guard let stored else { return (dmx, midi) }
        let defaultDMX = try DMXOptions.parse([]), defaultMIDI = try MIDIOptions.parse([])
        do {
            let savedDMX = try stored.dmx.map { try DMXOptions.parse($0) }
            let savedMIDI = try stored.midi.map { try MIDIOptions.parse($0) }
            return (dmx.arguments == defaultDMX.arguments ? savedDMX ?? dmx : dmx,
                    midi.arguments == defaultMIDI.arguments ? savedMIDI ?? midi : midi)
        } catch {
            throw ValidationError("the session manager's saved DMX/MIDI options do not read: \(DMXOptions.message(for: error))")
        }
    }
}
