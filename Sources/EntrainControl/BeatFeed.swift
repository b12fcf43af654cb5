import EntrainCore
import EntrainEngine

/// The beat analysis (and the LED thermal state) as OSC feedback. Onsets and beats go out as soon as the engine publishes
/// them, each in a bundle time-tagged with when it happened in the input (a beat: the predicted
/// beat time), so receivers can act on the exact moment. Tempo and confidence follow on change
/// (at most 30 times a second), the input level with the meters (15 times a second).
/// Used from the OSC server's thread only.
final class BeatFeed {
    private let host: @Sendable () -> EngineHost
    /// Unix time of an input frame (nil when unknown: the bundle is then marked "immediately").
    private let time: @Sendable (Int64) -> Double?
    private var sentBPM: Float = -1
    private var sentConfidence: Float = -1
    private var sentThermal = -1
    private var nextValues = 0.0
    private var nextLevel = 0.0
    private var bandsSilent = false

    init(host: @escaping @Sendable () -> EngineHost, time: @escaping @Sendable (Int64) -> Double?) {
        self.host = host
        self.time = time
    }

    /// What is due now: onsets and beats as encoded time-tagged bundles, and the values that
    /// changed. Drains the engine's events even with nobody listening, so the ring never fills.
    func feedback(now: Double, listening: Bool) -> (events: [[UInt8]], messages: [OSCMessage]) {
        let engine = host()
        var events: [[UInt8]] = []
        while let event = engine.nextBeatEvent() {
            guard listening else { continue }
            let tag = time(event.frame).map(OSCTimetag.init(unixTime:)) ?? .immediately
            events.append(OSCCodec.encodeBundle(Self.messages(for: event, sampleRate: engine.sampleRate), timetag: tag))
        }
        guard listening else { return (events, []) }
        var messages: [OSCMessage] = []
        if now >= nextValues {
            nextValues = now + FeedbackHub.valueInterval
            let bpm = engine.status.pointee.beatBPMValue, confidence = engine.status.pointee.beatConfidenceValue
            if abs(bpm - sentBPM) >= 0.05 {
                sentBPM = bpm
                messages.append(OSCMessage("/beat/bpm", [.float(bpm)]))
            }
            if abs(confidence - sentConfidence) >= 0.01 {
                sentConfidence = confidence
                messages.append(OSCMessage("/beat/confidence", [.float(confidence)]))
            }
            let thermal = engine.status.pointee.lightThermalState.load(ordering: .relaxed)
            if thermal != sentThermal, LightParameters.thermalStates.indices.contains(thermal) {
                sentThermal = thermal
                messages.append(OSCMessage("/led/thermal/state", [.string(LightParameters.thermalStates[thermal])]))
            }
        }
        if now >= nextLevel {
            nextLevel = now + FeedbackHub.meterInterval
            messages.append(OSCMessage("/beat/level", [.float(engine.status.pointee.takeBeatLevel())]))
            // The bands while there is something in them, and one report of silence.
            let bands = engine.status.pointee.bandLevels()
            let silent = bands.allSatisfy { $0 == 0 }
            if !(silent && bandsSilent) { messages.append(OSCMessage("/beat/bands", bands.map { OSCValue.float($0) })) }
            bandsSilent = silent
        }
        return (events, messages)
    }

    static func messages(for event: BeatEvent, sampleRate: Double) -> [OSCMessage] {
        switch event.kind {
        case .onset:
            return [OSCMessage("/beat/onset", [.float(event.strength)])]
        case .beat:
            return [OSCMessage("/beat/beat", [.int32(event.count)]),
                    OSCMessage("/beat/bpm", [.float(event.bpm)]),
                    OSCMessage("/beat/confidence", [.float(event.strength)]),
                    OSCMessage("/beat/next", [.float(Float(Double(event.framesToNext) / sampleRate))])]
        }
    }
}
