import CJack

public enum JackError: Error, CustomStringConvertible {
    case cannotOpen(status: UInt32, server: String)
    case cannotRegister(port: String)
    case cannotActivate
    case cannotConnect(from: String, to: String, code: Int32)

    public var description: String {
        switch self {
        case .cannotOpen(let status, let server):
            let start = server == "default" ? "jackd -d dummy" : "jackd -n \(server) -d dummy"
            if status & JackServerFailed.rawValue != 0 {
                return "no JACK server named '\(server)' is running. Start one (with your sound card: "
                    + "`\(start.replacingOccurrences(of: "dummy", with: "alsa"))`; without: `\(start)`; or qjackctl), "
                    + "choose another with --server NAME, or use `make run`, which starts one if none is running"
            }
            return "cannot open a JACK client on the JACK server '\(server)' (status 0x\(String(status, radix: 16)))"
        case .cannotRegister(let port): return "JACK refused to register port \(port)"
        case .cannotActivate: return "JACK refused to activate the client"
        case .cannotConnect(let from, let to, let code): return "cannot connect \(from) -> \(to) (error \(code))"
        }
    }
}
