import EntrainAmbient
import EntrainJACK
import EntrainService
import Foundation

/// Tells the JACK client where the ambient engine's own beat falls (drumEuclidBaseBPM ×
/// drumEuclidTempo, counted from the Unix epoch), ten times a second, so the MIDI clock keeps
/// going on the phrase grid while nothing is found on beat_in. It re-anchors only when the
/// tempo changes or the prediction drifts by more than 20 ms (a clock's jitter never moves it).
final class PhraseBeatFeed: @unchecked Sendable {
    private let service = ServiceThread("entrain-phrase", every: 0.1)
    /// The grid last published (the thread's own).
    private var published: (frame: Int64, index: Int, period: Double)?

    init(conductor: AmbientConductor, client: JackClient) {
        service.start { [self] _ in
            let beat = AmbientConductor.phraseBeatSeconds(conductor.state)
            let rate = client.sampleRate
            let index = Int((Date().timeIntervalSince1970 / beat).rounded(.up))
            guard rate > 0, let frame = client.engineFrame(atUnixTime: Double(index) * beat) else { return }
            let period = beat * rate
            let predicted = published.map { $0.frame + Int64((Double(index - $0.index) * $0.period).rounded()) }
            if published?.period != period || predicted.map({ abs($0 - frame) > Int64(rate / 50) }) ?? true {
                client.publishPhraseBeats(frame: frame, periodFrames: period)
                published = (frame, index, period)
            }
        }
    }

    func stop() { service.stop() }
}
