import EntrainEngine
let host = try EngineHost(sampleRate: 48000)
let r = OfflineRenderer(host: host)
let (l, _) = r.renderStereo(frames: 48000)
print(l.count, l.max()!)
