import Foundation

/// The haptic content of an .ahap file, checked and clamped, before rendering.
/// Audio events and audio parameters are not kept: entrain drives actuators, not speakers.
public struct AHAPPattern: Sendable, Equatable {
    public var version: Double?
    /// String-valued `Metadata` entries (`Project`, `Description`, …); other values are skipped.
    public var metadata: [String: String]
    public var events: [Event]
    public var parameters: [DynamicParameter]
    public var curves: [ParameterCurve]

    public init(version: Double? = nil, metadata: [String: String] = [:], events: [Event] = [],
                parameters: [DynamicParameter] = [], curves: [ParameterCurve] = []) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves
    }

    public enum EventKind: String, Sendable, Equatable {
        case transient = "HapticTransient"
        case continuous = "HapticContinuous"
    }

    /// A haptic event with every parameter resolved (defaults filled in, values clamped).
    public struct Event: Sendable, Equatable {
        public var kind: EventKind
        /// Start, seconds from the pattern start.
        public var time: Double
        /// Seconds; 0 for transients (their length comes from the envelope).
        public var duration: Double
        public var intensity: Double
        public var sharpness: Double
        public var attackTime: Double
        public var decayTime: Double
        public var releaseTime: Double
        public var sustained: Bool

        public init(kind: EventKind, time: Double, duration: Double = 0,
                    intensity: Double = EventParameterID.hapticIntensity.defaultValue,
                    sharpness: Double = EventParameterID.hapticSharpness.defaultValue,
                    attackTime: Double = 0, decayTime: Double = 0, releaseTime: Double = 0, sustained: Bool = true) {
            self.kind = kind
            self.time = time
            self.duration = duration
            self.intensity = intensity
            self.sharpness = sharpness
            self.attackTime = attackTime
            self.decayTime = decayTime
            self.releaseTime = releaseTime
            self.sustained = sustained
        }
    }

    /// A `Parameter` entry: the control jumps to `value` at `time`.
    public struct DynamicParameter: Sendable, Equatable {
        public var id: ControlID
        public var time: Double
        public var value: Double
        public init(id: ControlID, time: Double, value: Double) { self.id = id; self.time = time; self.value = value }
    }

    /// A `ParameterCurve` entry: control points with times relative to `time`, joined linearly.
    /// After its last point the control holds the last value (Apple does not say; see
    /// `AHAPControlTrack`) until another `Parameter` or curve for the same ID starts.
    public struct ParameterCurve: Sendable, Equatable {
        public struct Point: Sendable, Equatable {
            public var time: Double
            public var value: Double
            public init(time: Double, value: Double) { self.time = time; self.value = value }
        }
        public var id: ControlID
        public var time: Double
        public var points: [Point]
        public init(id: ControlID, time: Double, points: [Point]) { self.id = id; self.time = time; self.points = points }
    }
}

/// Event parameter IDs (`EventParameters`). Ranges from Apple's CHHapticParameter documentation;
/// Apple leaves defaults to the device, so the defaults here are ours (full strength, middle
/// sharpness, shortest times, sustained).
public enum EventParameterID: String, Sendable, CaseIterable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    public var range: ClosedRange<Double> {
        switch self {
        case .audioPitch, .audioPan: -1...1
        default: 0...1
        }
    }

    public var defaultValue: Double {
        switch self {
        case .hapticIntensity, .sustained, .audioVolume, .audioBrightness: 1
        case .hapticSharpness: 0.5
        default: 0
        }
    }

    public var isAudio: Bool { rawValue.hasPrefix("Audio") }
}

/// Dynamic parameter IDs (`Parameter`, `ParameterCurve`). Intensity and volume multiply the event
/// value; the others add to it (Apple's CHHapticDynamicParameter).
public enum ControlID: String, Sendable, CaseIterable {
    case hapticIntensityControl = "HapticIntensityControl"
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioPitchControl = "AudioPitchControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    public var range: ClosedRange<Double> {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: 0...1
        default: -1...1
        }
    }

    /// The value that changes nothing: 1 for the multiplying controls, 0 for the adding ones.
    public var neutralValue: Double {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: 1
        default: 0
        }
    }

    public var isAudio: Bool { rawValue.hasPrefix("Audio") }
}
