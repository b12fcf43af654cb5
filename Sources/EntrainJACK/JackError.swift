import CJack

public enum JackError: Error, CustomStringConvertible {
    case cannotOpen(status: UInt32, server: String?)
    case cannotRegister(port: String)
    case cannotActivate
    case cannotConnect(from: String, to: String, code: Int32)

    public var description: String {
        switch self {
        case .cannotOpen(let status, let server):
            let which = server.map { "JACK server '\($0)'" } ?? "the JACK server"
            if status & JackServerFailed.rawValue != 0 {
                return "cannot connect to \(which): is it running? (start one with `jackd -d dummy`, "
                    + "or use `make run`, which starts one if none is running)"
            }
            return "cannot open a JACK client on \(which) (status 0x\(String(status, radix: 16)))"
        case .cannotRegister(let port): return "JACK refused to register port \(port)"
        case .cannotActivate: return "JACK refused to activate the client"
        case .cannotConnect(let from, let to, let code): return "cannot connect \(from) -> \(to) (error \(code))"
        }
    }
}
