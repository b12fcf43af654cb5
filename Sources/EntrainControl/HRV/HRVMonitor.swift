import EntrainAddressSpace
import EntrainHRV
import EntrainService
import Foundation
import Logging
import Synchronization

/// The live side of HRV biofeedback: heart data from OSC in, the pipeline run on the sender's
/// thread (never the process thread), the latest values held for the HRV family and the once-a-
/// second report, each update recorded and passed to the mappings. Thread-safe.
public final class HRVMonitor: Sendable {
    /// Heart data older than this no longer counts as live.
    static let staleSeconds = 10.0

    struct Settings: Sendable, Equatable {
        var algorithm = HRVSettings.Algorithm.standard
        var mappings = Dictionary(uniqueKeysWithValues: HRVMapping.sources.map { ($0, HRVMapping()) })
        var pacer = HRVPacer.Settings()
    }

    struct State {
        var pipeline = HRVPipeline()
        var settings = Settings()
        var latest: HRVUpdate?
        var lastIntervals: Double?
        var heartRate: (bpm: Double, at: Double)?
        /// The VRChat parameter's last value (it repeats one RR until the next beat's arrives).
        var lastNewest: Double?
        var recorder: HRVRecorder?
        /// Mode changes since the last report, sent with it.
        var modeChanges: [OSCMessage] = []
        var lastProblem: String?
        var space: AddressSpace?
    }

    private let state = Mutex(State())
    private let started: Double
    let logger: Logger
    /// Where `/hrv/record/start NAME` writes (nil: refused).
    let recordings: URL?
    let pacer: HRVPacer

    public init(recordings: URL? = nil, logger: Logger = Logger(label: "entrain.hrv")) {
        self.recordings = recordings
        self.logger = logger
        started = ServiceThread.monotonicNow()
        pacer = HRVPacer(logger: logger)
    }

    /// Seconds since the monitor started (the records' `t`).
    func now() -> Double { ServiceThread.monotonicNow() - started }

    /// Where mappings and the pacer set their targets.
    public func attach(_ space: AddressSpace) {
        state.withLock { $0.space = space }
        pacer.attach(space, rate: { [weak self] in self?.measuredBreathRate })
    }

    // MARK: Heart data in

    func receive(_ input: HeartInput) {
        let t = now()
        switch input {
        case .intervals(let rr): ingest(rr, at: t)
        case .newestInterval(let rr):
            // Deduplicated; an RR that is exactly 60000/BPM of the same sender's last heart rate
            // is its stand-in for a packet without RR (PyHRPresence), not a beat.
            let fresh = state.withLock { s -> Bool in
                defer { s.lastNewest = rr }
                guard rr != s.lastNewest else { return false }
                if let hr = s.heartRate, t - hr.at < Self.staleSeconds, hr.bpm > 0, rr == (60_000 / hr.bpm).rounded(.towardZero) { return false }
                return true
            }
            if fresh { ingest([rr], at: t) }
        case .heartRate(let bpm):
            state.withLock { $0.heartRate = (bpm, t) }
        }
    }

    private func ingest(_ rr: [Double], at t: Double) {
        let (update, changes, problem) = state.withLock { s -> (HRVUpdate?, [ControlChange], String?) in
            s.lastIntervals = t
            guard let u = s.pipeline.ingest(rr, at: t) else { return (nil, [], nil) }
            let previous = s.latest?.mode.reported.mode
            s.latest = u
            if u.mode.reported.mode != previous { s.modeChanges.append(Self.modeMessage(u)) }
            var problem: String?
            if let recorder = s.recorder {
                do { try recorder.record(u) } catch {
                    problem = "\(error); recording stopped"
                    s.recorder = nil
                }
            }
            var changes: [ControlChange] = []
            if let space = s.space {
                for (source, mapping) in s.settings.mappings.sorted(by: { $0.key < $1.key }) {
                    do {
                        if let change = try mapping.change(Self.level(source, u), in: space) { changes.append(change) }
                    } catch { problem = "mapping \(source) → \(mapping.target ?? ""): \(error)" }
                }
            }
            return (u, changes, problem)
        }
        guard update != nil else { return }
        if !changes.isEmpty, let space = state.withLock({ $0.space }) {
            do { try space.set(changes, from: .mapping) } catch { report(problem: "mapping: \(error)") }
        }
        report(problem: problem)
    }

    /// A problem is logged when it first appears (not once a second while it lasts).
    private func report(problem: String?) {
        let isNew = state.withLock { s -> Bool in
            defer { s.lastProblem = problem }
            return problem != nil && problem != s.lastProblem
        }
        if isNew, let problem { logger.warning("HRV: \(problem)") }
    }

    static func level(_ source: String, _ u: HRVUpdate) -> Double {
        switch source {
        case "coherence": u.coherence
        case "entrainment": u.metrics.entrainment.value
        default: u.metrics.calm
        }
    }

    // MARK: Values out

    /// The latest update, if the heart data is live.
    var latest: HRVUpdate? {
        let t = now()
        return state.withLock { s in s.lastIntervals.map { t - $0 < Self.staleSeconds } == true ? s.latest : nil }
    }

    var measuredBreathRate: Double? { latest?.metrics.breath.rate }

    /// Whether HRV is being computed from live RR (a BPM-only sender: no).
    var available: Bool { latest != nil }

    /// From live RR, else a BPM-only sender's, else 0.
    var heartRate: Double {
        let t = now()
        return state.withLock { s in
            if let last = s.lastIntervals, t - last < Self.staleSeconds, s.pipeline.accepted > 0 { return s.pipeline.heartRate }
            return s.heartRate.flatMap { t - $0.at < Self.staleSeconds ? $0.bpm : nil } ?? 0
        }
    }

    var counts: (accepted: Int, rejected: Int) { state.withLock { ($0.pipeline.accepted, $0.pipeline.rejected) } }

    static func modeMessage(_ u: HRVUpdate) -> OSCMessage {
        OSCMessage("/hrv/mode", [.string(u.mode.reported.mode), .float(Float(u.mode.membership))])
    }

    static func phaseMessage(_ u: HRVUpdate) -> OSCMessage {
        let p = u.phase
        return OSCMessage("/hrv/phase", p.position.map { .float(Float($0)) }
                          + [.float(Float(p.speed)), .float(Float(p.stability)), .float(Float(p.coherence)), .string(p.label)])
    }

    /// Once a second to subscribers: the mode changes since the last report, then the latest
    /// mode and phase while heart data is live.
    public func report() -> [OSCMessage] {
        let changes = state.withLock { s in defer { s.modeChanges.removeAll() }; return s.modeChanges }
        guard let u = latest else { return changes }
        return changes.dropLast(changes.last == Self.modeMessage(u) ? 1 : 0) + [Self.modeMessage(u), Self.phaseMessage(u)]
    }

    // MARK: Settings and recording

    var settings: Settings { state.withLock { $0.settings } }

    func change(_ body: (inout Settings) throws -> Void) throws {
        let pacerSettings = try state.withLock { s -> HRVPacer.Settings in
            var settings = s.settings
            try body(&settings)
            if settings.algorithm != s.settings.algorithm { s.pipeline = HRVPipeline(settings: HRVSettings(algorithm: settings.algorithm)) }
            s.settings = settings
            return settings.pacer
        }
        pacer.update(pacerSettings)
    }

    var space: AddressSpace? { state.withLock { $0.space } }

    /// Start recording to `path` (replacing a recording under way).
    public func startRecording(to path: String, label: String? = nil, exclusive: Bool = false) throws {
        let algorithm = state.withLock { $0.settings.algorithm }
        let recorder = try HRVRecorder(path: path, label: label, algorithm: algorithm, exclusive: exclusive)
        state.withLock { $0.recorder = recorder }
        logger.info("HRV: recording to \(path)")
    }

    /// `/hrv/record/start NAME`: NAME.jsonl in the recordings folder, never overwriting.
    func startRecording(named name: String) throws {
        guard let recordings else { throw HRVError("recordings are not available here") }
        do { try NamedStore.check(name) } catch { throw HRVError("\(error)") }
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        try startRecording(to: recordings.appendingPathComponent(name + ".jsonl").path, label: "recordings/\(name).jsonl", exclusive: true)
    }

    public func stopRecording() {
        if let path = state.withLock({ s -> String? in defer { s.recorder = nil }; return s.recorder?.path }) {
            logger.info("HRV: recording to \(path) stopped")
        }
    }

    var recordingPath: String? { state.withLock { $0.recorder?.path } }

    public func stop() { pacer.stop() }

    /// `snapshot` as the last-used settings keep it: the pacer's targets at the values they held
    /// before it started, not wherever its swell stands.
    public func beforePacing(_ snapshot: [(address: String, value: ControlValue)]) -> [(address: String, value: ControlValue)] {
        pacer.beforePacing(snapshot)
    }
}
