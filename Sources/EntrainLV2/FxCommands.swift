import EntrainControl
import EntrainEngine

/// `/fx/BUS/add s:URI` (reply: `/fx/BUS/add i:slot s:URI`), `/fx/BUS/remove i` and
/// `/fx/BUS/move i i`: the chain-changing commands beside the family's values.
public struct FxCommands: OSCCommandHandler {
    let chains: InsertChains

    public init(_ chains: InsertChains) { self.chains = chains }

    public func handle(_ message: TimedMessage, frame: Int64?) -> [OSCRouter.Action]? {
        let m = message.message
        guard m.address.hasPrefix(FxFamily.prefix) else { return nil }
        let pieces = m.address.dropFirst(FxFamily.prefix.count).split(separator: "/")
        guard pieces.count == 2, ["add", "remove", "move"].contains(pieces[1]) else { return nil }
        guard let bus = InsertBus.allCases.first(where: { $0.name == pieces[0] }) else {
            return [.error(address: m.address, reason: LV2Error.unknownBus(String(pieces[0])).description)]
        }
        func integer(_ i: Int) -> Int? {
            guard m.arguments.count > i, let n = m.arguments[i].number, n == n.rounded(), abs(n) < 1e6 else { return nil }
            return Int(n)
        }
        do {
            switch pieces[1] {
            case "add":
                guard m.arguments.count == 1, case .string(let uri) = m.arguments[0] else {
                    return [.error(address: m.address, reason: "expects one argument: s plugin URI")]
                }
                let slot = try chains.add(uri, to: bus)
                return [.reply(OSCMessage(m.address, [.int32(Int32(slot + 1)), .string(uri)]))]  // slots count from 1
            case "remove":
                guard m.arguments.count == 1, let i = integer(0) else { return [.error(address: m.address, reason: "expects one argument: i slot")] }
                try chains.remove(i - 1, from: bus)
            default:
                guard m.arguments.count == 2, let from = integer(0), let to = integer(1) else {
                    return [.error(address: m.address, reason: "expects two arguments: i from, i to")]
                }
                try chains.move(from - 1, to: to - 1, on: bus)
            }
            return []
        } catch {
            return [.error(address: m.address, reason: "\(error)")]
        }
    }
}
