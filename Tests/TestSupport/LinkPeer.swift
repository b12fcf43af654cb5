import Foundation
import Synchronization

/// A real Ableton Link peer (aalink, the Python module from PyPI; Tests/Fixtures/link/peer.py)
/// run inside a `PrivateNetwork`. It reports the session's beat on both monotonic clocks every
/// 20 ms; `beat(at:)` lays the session's grid over times on JACK's clock.
public final class LinkPeer {
    public struct Sample: Sendable {
        public var mono: Double, raw: Double, beat: Double, tempo: Double, peers: Int
    }

    private let process = Process()
    private let input = Pipe()
    /// The reports so far (a class: the pipe's reader thread appends to it).
    private final class Reports: Sendable { let all = Mutex<[Sample]>([]) }
    private let reports = Reports()
    /// Times given to `beat(at:)` are on CLOCK_MONOTONIC_RAW (jackd2's clock) rather than CLOCK_MONOTONIC.
    public var clockIsRaw = true

    public init(network: PrivateNetwork, tempo: Double, quantum: Double = 4) throws {
        let script = EntrainBinary.packageRoot.appendingPathComponent("Tests/Fixtures/link/peer.py").path
        process.executableURL = URL(fileURLWithPath: network.exec[0])
        process.arguments = Array(network.exec.dropFirst()) + ["python3", script, "--tempo", "\(tempo)", "--quantum", "\(quantum)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        output.fileHandleForReading.readabilityHandler = { [reports] handle in
            let data = handle.availableData
            guard !data.isEmpty else { handle.readabilityHandler = nil; return }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            let parsed = lines.compactMap { line -> Sample? in
                let w = line.split(separator: " ")
                guard w.count == 6, w[0] == "grid", let mono = Double(w[1]), let raw = Double(w[2]), let beat = Double(w[3]),
                      let tempo = Double(w[4]), let peers = Int(w[5]) else { return nil }
                return Sample(mono: mono, raw: raw, beat: beat, tempo: tempo, peers: peers)
            }
            reports.all.withLock { $0 += parsed }
        }
        try process.run()
    }

    deinit {
        send("quit")
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// Why no peer can run here (python3 without aalink), or nil.
    public static var unavailable: String? {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import aalink"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return "python3 is not installed" }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? nil : "python3 has no aalink (scripts/install-deps.sh installs it from PyPI)"
    }

    /// Set the session's tempo, as someone playing this peer would.
    public func setTempo(_ bpm: Double) { send("tempo \(bpm)") }

    private func send(_ line: String) {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    public var latest: Sample? { reports.all.withLock { $0.last } }

    /// The session's beat at `time` (µs on JACK's clock), from the last report before it at the
    /// tempo then; nil when no report is near (within 0.2 s).
    public func beat(at time: Double) -> (beat: Double, tempo: Double)? {
        reports.all.withLock { all in
            let key: (Sample) -> Double = clockIsRaw ? { $0.raw } : { $0.mono }
            var low = 0, high = all.count
            while low < high {
                let mid = (low + high) / 2
                if key(all[mid]) <= time { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { return nil }
            let s = all[low - 1]
            guard time - key(s) < 200_000 else { return nil }
            return (s.beat + (time - key(s)) * s.tempo / 60e6, s.tempo)
        }
    }

    /// How far `time` is from the session's nearest whole beat, in ms (negative: early).
    public func offsetFromBeat(at time: Double) -> Double? {
        guard let (beat, tempo) = beat(at: time) else { return nil }
        return (beat - beat.rounded()) * 60_000 / tempo
    }

    /// Wait until `condition` holds for the latest report.
    public func waitFor(_ what: String, timeout: TimeInterval = 15, _ condition: (Sample) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !(latest.map(condition) ?? false) {
            if Date() > deadline || !process.isRunning { throw TestSupportError.timeout(what) }
            usleep(20_000)
        }
    }
}
