import EntrainAmbient
import EntrainControl
import EntrainJACK

/// Where the ambient lead and drums find an outside beat live: JACK transport (while a timebase
/// master gives bars and beats), the tracker's latest beat on beat_in (once it has a tempo), or
/// the Ableton Link session's latest beat (while following one).
enum AmbientBeatSources {
    /// The beat tracker's confidence below which its beat is not followed.
    static let minimumConfidence: Float = 0.2

    static func live(current: CurrentEngine, client: JackClient) -> @Sendable (AmbientTempoSource) -> ExternalBeat? {
        { [weak client] source in
            let host = current.host
            switch source {
            case .phrase:
                return nil
            case .link:
                guard let l = client?.linkBeat() else { return nil }
                return ExternalBeat(anchorFrame: l.frame, index: l.beat, periodFrames: l.periodFrames)
            case .jack:
                guard let t = client?.transportBeats() else { return nil }
                return ExternalBeat(anchorFrame: t.frame, index: t.beat, periodFrames: 60 / t.bpm * host.sampleRate)
            case .beat:
                let status = host.status
                let bpm = Double(status.pointee.beatBPMValue), frame = status.pointee.lastBeatFrame.load(ordering: .relaxed)
                guard bpm > 0, frame >= 0, status.pointee.beatConfidenceValue >= minimumConfidence else { return nil }
                let count = status.pointee.lastBeatCount.load(ordering: .relaxed)
                return ExternalBeat(anchorFrame: Int64(frame), index: Double(count), periodFrames: 60 / bpm * host.sampleRate)
            }
        }
    }
}
