import EntrainAddressSpace
import EntrainAmbient
import Foundation
import Kessho
import Logging

/// The ambient engine's commands: transport, seed, presets and status, turned into calls on the
/// conductor (its keys are the ambient family's, in the address space). Refusals come back as
/// router errors; nothing here may crash on what a sender sends. Thread-safe (OSC thread,
/// session ticks).
public final class AmbientController: CommandSource {
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

    public var commands: [DeclaredCommand] { Self.declarations.map { $0.bound(to: self) } }
    public var catalogs: [Catalog: @Sendable () -> [String]] { [.ambientPresets: { [presets] in presets.files.names() }] }

    /// `/ambient/play` and `/ambient/stop` are also buttons: a number is the fade in seconds, `T`
    /// the default fade, `F` a release (ignored).
    public static let declarations: [CommandDeclaration<AmbientController>] = [
        .init(CommandDescriptor("/ambient/play", [.optional("f", "fade")], trigger: .argumentsOrButton, """
            start the engine (fade-in in seconds, default 0.05; pads keep their own attack). The phrase grid follows UTC: the \
            seed bucket is frozen at this moment. As a button: `T` or a number presses (the number is the fade), `F` is a \
            release and is ignored
            """)) { c, call in
            let conductor = try c.running()
            guard let fade = try c.fade(call.arguments, default: 0.05) else { return [] }
            try conductor.play(fadeSeconds: fade)
            return []
        },
        .init(CommandDescriptor("/ambient/stop", [.optional("f", "fade")], trigger: .argumentsOrButton, schedulable: true, """
            fade out (default 2 s, at most 600), then stop computing; in a bundle, from the time tag's frame. `T` presses with \
            the default fade, `F` is ignored
            """)) { c, call in
            let conductor = try c.running()
            guard let fade = try c.fade(call.arguments, default: 2) else { return [] }
            try conductor.stop(fadeSeconds: fade, at: call.frame)
            return []
        },
        .init(CommandDescriptor("/ambient/seed", [.optional("ih", "seed")], reply: "`/ambient/seed h`", """
            the seed of what the web leaves to `Math.random` (filter walk, walking sliders, grain noise, ocean), ≥ 0; takes \
            effect at the next `/ambient/play`. No argument: a query
            """)) { c, call in try c.seed(call.arguments, try c.running()) },
        .init(CommandDescriptor("/ambient/status", answersOnly: true, reply: """
            `/ambient/status i:playing s:bucket h:seed i:drift_step f…:chord` (the sounding chord's frequencies in Hz, \
            A4 = 432 Hz; none before the first play)
            """, "a snapshot")) { c, _ in [.reply(c.status(try c.running()))] },
        .init(CommandDescriptor("/ambient/preset/load", [.required("s", "name", from: .ambientPresets), .optional("f", "crossfade")], readsFiles: true,
                                reply: "one `/ambient/preset/warning s:name s:warning` per loader warning", """
            load a Kessho preset (the web's JSON) from `./presets/ambient`, `$XDG_DATA_HOME/entrain/ambient` or the installed \
            `PREFIX/share/entrain/ambient` by name, with or without `.json` (paths leading outside are refused), and glide \
            there over `crossfade` seconds (default 0; a glide needs the engine playing). The drift goes home; `reverbQuality` \
            is kept (a listener's preference on the web). Does not start the engine
            """)) { c, call in
            _ = try c.running()
            let name = try c.text(call.arguments, 0, count: 1...2)
            let crossfade = call.arguments.count > 1 ? try c.seconds(call.arguments[1]) : 0
            return try c.loadPreset(name, crossfade: crossfade).map { .reply(OSCMessage("/ambient/preset/warning", [.string(name), .string($0)])) }
        },
        .init(CommandDescriptor("/ambient/preset/save", [.required("s", "name")], """
            save the current state in the web's format as `$XDG_DATA_HOME/entrain/ambient/NAME.json`, atomically, with the \
            last loaded preset's slider ranges and modes. Names: 1–64 letters, digits, spaces, `- _ . ( )`
            """)) { c, call in
            _ = try c.running()
            try c.savePreset(try c.text(call.arguments, 0, count: 1...1))
            return []
        },
    ]

    private func running() throws -> AmbientConductor {
        guard let conductor else { throw AmbientError("the ambient engine is not running") }
        return conductor
    }

    // MARK: Transport, seed, status

    private func seed(_ arguments: [OSCValue], _ conductor: AmbientConductor) throws -> [OSCRouter.Action] {
        guard let argument = arguments.first else {
            return [.reply(OSCMessage("/ambient/seed", [.int64(Int64(bitPattern: conductor.seed))]))]
        }
        let n: Int64
        switch argument {
        case .int32(let v): n = Int64(v)
        case .int64(let v): n = v
        default: throw AmbientError("expects one integer (i or h) ≥ 0")
        }
        guard arguments.count == 1, n >= 0 else { throw AmbientError("expects one integer (i or h) ≥ 0") }
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
    private func fade(_ arguments: [OSCValue], default value: Double) throws -> Double? {
        guard arguments.count <= 1 else { throw AmbientError("expects at most one number: the fade in seconds") }
        switch arguments.first {
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

    private func text(_ arguments: [OSCValue], _ index: Int, count: ClosedRange<Int>) throws -> String {
        guard count.contains(arguments.count), let s = arguments[index].text else {
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
        var preset = result.preset
        let (settings, problems) = AmbientFamily.takeSettings(from: &preset.state)  // a file's conductor settings, never hashed
        for problem in problems { logger.warning("ambient preset \(UntrustedText.clean(name)): \(UntrustedText.clean(problem, limit: 400))") }
        try conductor.load(preset, settings: settings, crossfade: crossfade)
        return result.warnings + problems
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
