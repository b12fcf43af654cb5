import Foundation

/// What the live control loop needs from the audio server it runs on (JACK in the client):
/// its clock rate, whether it is still there, the latencies it reports, and the swap of a
/// re-prepared engine. A protocol one tier below both the JACK client and the control side,
/// so neither has to know the other.
public protocol AudioBackend: AnyObject, Sendable {
    /// The server's sample rate now (it may change while running).
    var sampleRate: Double { get }
    /// The server shut down or dropped the client.
    var serverGone: Bool { get }
    /// Playback latency of the audio outputs, and of the led port, in frames.
    var playbackLatency: Int { get }
    var lightLatency: Int { get }
    /// Hand the process thread a new engine (prepared off it); the old one is kept until released.
    func replace(with host: EngineHost)
    /// Free engines the process thread has let go of.
    func collectRetiredEngines()
    /// The engine frame that plays at `unixTime` (seconds), on the server's clock; nil before
    /// its first cycle. The one mapping between wall-clock time and frames.
    func engineFrame(atUnixTime unixTime: Double) -> Int64?
    /// The server is gone: try once to be back on a server of the same name (ports registered,
    /// not yet running). True when it is back.
    func reopen() -> Bool
    /// Run again after `reopen` with the engine last handed over, connections restored.
    func restart() throws
    /// Keep track of the connections to restore after a return (and retry pending ones).
    func rememberConnections(now: Date)
}
