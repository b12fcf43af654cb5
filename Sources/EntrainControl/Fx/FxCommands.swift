import EntrainAddressSpace
import EntrainEngine
import EntrainLV2

/// `/fx/BUS/add s:URI` (reply: `/fx/BUS/add i:slot s:URI`), `/fx/BUS/remove i` and
/// `/fx/BUS/move i i`: the chain-changing commands of the hosted-plugin family, declared in the
/// LV2 module with the chain's address (`FxChainAddresses.commands`) and bound here to the
/// command contract (the LV2 module sits below the control surfaces and knows no OSC).
public struct FxCommands: CommandSource {
    let chains: InsertChains

    public init(_ chains: InsertChains) { self.chains = chains }

    public var commands: [DeclaredCommand] {
        InsertBus.allCases.flatMap { bus in
            FxChainAddresses.commands(bus).map { descriptor in
                DeclaredCommand(descriptor) { [chains] call in try Self.perform(call, on: bus, chains) }
            }
        }
    }

    static func perform(_ call: CommandCall, on bus: InsertBus, _ chains: InsertChains) throws -> [OSCRouter.Action] {
        let arguments = call.arguments
        func integer(_ i: Int) -> Int? {
            guard arguments.count > i, let n = arguments[i].number, n == n.rounded(), abs(n) < 1e6 else { return nil }
            return Int(n)
        }
        switch call.address.split(separator: "/").last {
        case "add":
            guard arguments.count == 1, case .string(let uri) = arguments[0] else { throw CommandError("expects one argument: s plugin URI") }
            let slot = try chains.add(uri, to: bus)
            return [.reply(OSCMessage(call.address, [.int32(Int32(slot + 1)), .string(uri)]))]  // slots count from 1
        case "remove":
            guard arguments.count == 1, let i = integer(0) else { throw CommandError("expects one argument: i slot") }
            try chains.remove(i - 1, from: bus)
        default:
            guard arguments.count == 2, let from = integer(0), let to = integer(1) else { throw CommandError("expects two arguments: i from, i to") }
            try chains.move(from - 1, to: to - 1, on: bus)
        }
        return []
    }
}
