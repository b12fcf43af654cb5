import EntrainEngine
import Foundation
import Kessho

/// The ambient engine in an offline render: a conductor on the render's counting clock (the
/// phrase grid placed at `start`), playing from frame 0 and fading out with the render.
public struct AmbientRender {
    public let state: KesshoState
    /// The conductor's own settings to start with (the tempo source, the drum lanes' evolve).
    public let settings: [ConductorSetting]
    public let sliders: KesshoSliders
    public let seed: UInt64
    public let start: Date

    public init(state: KesshoState, settings: [ConductorSetting] = [], sliders: KesshoSliders = KesshoSliders(), seed: UInt64,
                start: Date) {
        self.state = state
        self.settings = settings
        self.sliders = sliders
        self.seed = seed
        self.start = start
    }

    /// `playsAtStart`: false when only a session's stages start the engine. `prepared` gets the
    /// conductor once the engine exists (a session player's ambient stages need it).
    public func attach(to job: inout RenderJob, playsAtStart: Bool = true,
                       prepared: @escaping (AmbientConductor) -> Void = { _ in }) {
        final class Box: @unchecked Sendable {  // the render thread only
            var conductor: AmbientConductor?
            var fadeOutFrame: Int64 = .max
            var fadeOut = 0.0
        }
        let box = Box()
        let rate = Double(job.sampleRate), lookahead = Double(job.blockSize) / rate
        let origin = start.timeIntervalSince1970, state = state, settings = settings, sliders = sliders, seed = seed
        job.prepare = { host, fadeOutFrame in
            let conductor = AmbientConductor(host: host, state: state, settings: settings, sliders: sliders, seed: seed,
                                             lookaheadSeconds: lookahead) {
                .init(frame: host.frame, unixSeconds: origin + Double(host.frame) / rate)
            }
            if playsAtStart { try conductor.play(fadeSeconds: try host.value(of: "/master/fade-in")) }
            box.conductor = conductor
            prepared(conductor)
            box.fadeOutFrame = fadeOutFrame
            box.fadeOut = try host.value(of: "/master/fade-out")
        }
        let previous = job.schedule
        job.schedule = { host, frame in
            try previous?(host, frame)
            guard let conductor = box.conductor else { return }
            try conductor.pump()
            if frame > box.fadeOutFrame, conductor.isPlaying {
                try conductor.stop(fadeSeconds: box.fadeOut, at: box.fadeOutFrame)
            }
        }
    }
}
