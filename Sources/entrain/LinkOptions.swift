import ArgumentParser
import EntrainControl
import EntrainJACK

/// Ableton Link options of `run` (the rest is the link family: --set /link/role=lead-from-beat …).
struct LinkOptions: ParsableArguments {
    @Flag(name: .customLong("link"), help: "Join the Ableton Link session on the local network (/link/enabled): follow its tempo and phase while it has peers, or lead it from beat_in with --set /link/role=lead-from-beat.")
    var enabled = false
}

extension LinkSession: LinkSessionControl {}
