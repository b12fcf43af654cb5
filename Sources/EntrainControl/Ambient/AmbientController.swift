import EntrainAmbient
import Foundation
import Kessho
import Logging

/// The ambient engine's commands: transport, seed, presets and status, turned into calls on the
/// conductor (its keys are the ambient family's, in the address space). Refusals come back as
/// router errors; nothing here may crash on what a sender sends. Thread-safe (OSC thread,
/// session ticks).
public final class AmbientController: OSCCommandHandler {
    /// Fades are bounded so a typo cannot silence the engine for hours.
    static let maximumFade = 600.0

    /// nil: the client runs without the ambient engine, and every address says so.
    public let conductor: AmbientConductor?
    public let presets: AmbientPresets
    let logger: Logger

    public init(conductor: AmbientConductor?, presets: AmbientPresets,
                logger: Logger = Logger(label: "entrain.ambient")) {
        self.conductor = conductor
        self.presets = presets
        self.logger = logger
    }

    static let commands: Set<String> = ["/ambient/play", "/ambient/stop", "/ambient/seed", "/ambient/status",
                                        "/ambient/preset/load", "/ambient/preset/save"]

    /// nil for anything but the ambient commands. `/ambient/play` and `/ambient/stop` are also
    /// buttons: a number is the fade in seconds, `T` the default fade, `F` a release (ignored).
    public func handle(_ timed: TimedMessage, frame: Int64?) -> [OSCRouter.Action]? {
        let message = timed.message, address = message.address
        guard Self.commands.contains(address) else { return nil }
        guard let conductor else { return [.error(address: address, reason: "the ambient engine is not running")] }
        do {
            switch address {
            case "/ambient/play":
                guard let fade = try fade(message, default: 0.05) else { return [] }
                try conductor.play(fadeSeconds: fade)
            case "/ambient/stop":
                guard let fade = try fade(message, default: 2) else { return [] }
                try conductor.stop(fadeSeconds: fade, at: frame)
            case "/ambient/seed": return try seed(message, conductor)
            case "/ambient/status": return [.reply(status(conductor))]
            case "/ambient/preset/load":
                let name = try text(message, 0, count: 1...2)
                let crossfade = message.arguments.count > 1 ? try seconds(message.arguments[1]) : 0
                return try loadPreset(name, crossfade: crossfade).map { .reply(OSCMessage("/ambient/preset/warning", [.string(name), .string($0)])) }
            default:
                try savePreset(try text(message, 0, count: 1...1))
            }
        } catch {
            return [.error(address: address, reason: "\(error)")]
        }
        return []
    }

    // MARK: Transport, seed, status

    private func seed(_ message: OSCMessage, _ conductor: AmbientConductor) throws -> [OSCRouter.Action] {
        guard let argument = message.arguments.first else {
            return [.reply(OSCMessage("/ambient/seed", [.int64(Int64(bitPattern: conductor.seed))]))]
        }
        let n: Int64
        switch argument {
        case .int32(let v): n = Int64(v)
        case .int64(let v): n = v
        default: throw AmbientError("expects one integer (i or h) ≥ 0")
        }
        guard message.arguments.count == 1, n >= 0 else { throw AmbientError("expects one integer (i or h) ≥ 0") }
        conductor.reseed(UInt64(n))
        return []
    }

    /// playing, bucket, seed, drift step, then the sounding chord's frequencies in Hz.
    func status(_ conductor: AmbientConductor) -> OSCMessage {
        let harmony = conductor.harmony
        return OSCMessage("/ambient/status", [.int32(conductor.isPlaying ? 1 : 0), .string(conductor.bucket),
                                              .int64(Int64(bitPattern: conductor.seed)), .int32(Int32(harmony.step))]
                          + (harmony.chord?.frequencies ?? []).map { .float(Float($0)) })
    }

    /// The fade a play or stop asks for; nil for a button's release (`F`).
    private func fade(_ message: OSCMessage, default value: Double) throws -> Double? {
        guard message.arguments.count <= 1 else { throw AmbientError("expects at most one number: the fade in seconds") }
        switch message.arguments.first {
        case nil, .true?: return value
        case .false?: return nil
        case let argument?: return try seconds(argument)
        }
    }

    private func seconds(_ argument: OSCValue) throws -> Double {
        guard let n = argument.number, n.isFinite, n >= 0, n <= Self.maximumFade else {
            throw AmbientError("a time must be a number of seconds from 0 to \(Int(Self.maximumFade))")
        }
        return n
    }

    private func text(_ message: OSCMessage, _ index: Int, count: ClosedRange<Int>) throws -> String {
        guard count.contains(message.arguments.count), let s = message.arguments[index].text else {
            throw AmbientError("expects a preset name (string)\(count.upperBound > 1 ? " and an optional crossfade in seconds" : "")")
        }
        return s
    }

    // MARK: Presets

    /// Load preset `name` and glide there over `crossfade` seconds (it sounds only if playing).
    /// Returns the loader's warnings (already logged).
    @discardableResult
    public func loadPreset(_ name: String, crossfade: Double) throws -> [String] {
        guard let conductor else { throw AmbientError("the ambient engine is not running") }
        let result = try presets.load(name, keepingReverbQuality: conductor.state.string("reverbQuality"))
        for warning in result.warnings { logger.warning("ambient preset \(UntrustedText.clean(name)): \(UntrustedText.clean(warning, limit: 400))") }
        try conductor.load(result.preset, crossfade: crossfade)
        return result.warnings
    }

    /// A session stage's `"ambient"` block: its preset, and play if the engine is silent.
    public func startStage(preset name: String, crossfade: Double) throws {
        try loadPreset(name, crossfade: crossfade)
        if conductor?.isPlaying == false { try conductor?.play() }
    }

    /// Save the state now playing as `name`, with the loaded preset's slider ranges and modes.
    public func savePreset(_ name: String) throws {
        guard let conductor else { throw AmbientError("the ambient engine is not running") }
        let sliders = conductor.sliderSetup
        try presets.save(KesshoPreset(name: name, state: conductor.state, dualRanges: sliders.ranges, sliderModes: sliders.modes),
                         as: name)
    }
}

/// A refused ambient message: the reason goes back to the sender as /error.
public struct AmbientError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ reason: String) { description = reason }
}
