import CJack
import EntrainCore

/// The mix input passes through to entrainment_L/R, so JACK's latency model runs through us:
/// what the music heard on mix_L/R was captured with, plus our own delay (the output limiter's
/// look-ahead; the mix path adds nothing else), is the entrainment pair's capture latency, and
/// what follows the pair plus our delay is the mix inputs' playback latency.
extension ProcessContext {
    func reportMixCaptureLatency(own: jack_nframes_t) {
        var heard = jack_latency_range_t(min: 0, max: 0)
        for port in [ClientPort.mixL, .mixR] {
            guard let handle = ports[port.rawValue] else { continue }
            var range = jack_latency_range_t()
            jack_port_get_latency_range(handle, JackCaptureLatency, &range)
            heard.min = max(heard.min, range.min)
            heard.max = max(heard.max, range.max)
        }
        var out = jack_latency_range_t(min: heard.min + own, max: heard.max + own)
        for port in [ClientPort.entrainmentL, .entrainmentR] {
            if let handle = ports[port.rawValue] { jack_port_set_latency_range(handle, JackCaptureLatency, &out) }
        }
    }

    func reportMixPlaybackLatency() {
        guard let left = ports[ClientPort.entrainmentL.rawValue] else { return }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(left, JackPlaybackLatency, &range)
        let own = jack_nframes_t(clamping: ownLatency.load(ordering: .relaxed))
        var input = jack_latency_range_t(min: range.min + own, max: range.max + own)
        for port in [ClientPort.mixL, .mixR] {
            if let handle = ports[port.rawValue] { jack_port_set_latency_range(handle, JackPlaybackLatency, &input) }
        }
    }
}
