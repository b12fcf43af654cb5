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
            try host.set("/cue/strike", Double(SoundsParameters.Cue.stage.rawValue), glide: 0, at: at)
            try host.set("/cue/strike", Double(SoundsParameters.Cue.none.rawValue), glide: 0, at: at + 1)
        }
    }
}
