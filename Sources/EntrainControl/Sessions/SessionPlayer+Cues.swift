import EntrainAddressSpace
import EntrainEngine

extension SessionPlayer {
    /// The stage cue on every stage's first frame but the first stage's: `/cue/strike` to
    /// "stage" there and back to "none" a frame later. The engine rings it at `/cue/stage`'s
    /// level (0, the default, is silence), so a session rings only when asked to.
    func sendCues(through frame: Int64, to host: EngineHost) throws {
        let starts = program.stageStarts
        while nextCue < starts.count, startFrame + starts[nextCue] <= frame {
            let at = startFrame + starts[nextCue]
            nextCue += 1
            for (cue, frame) in [(SoundsParameters.Cue.stage, at), (.none, at + 1)] {
                guard let strike = EngineFamily.change("/cue/strike", number: Double(cue.rawValue), glide: 0) else { continue }
                try door(host).set([strike], at: frame, from: .file)
            }
        }
    }
}
