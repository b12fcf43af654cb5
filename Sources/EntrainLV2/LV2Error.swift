/// Why a plugin could not be loaded or changed, in words a user can act on.
public enum LV2Error: Error, CustomStringConvertible, Equatable {
    case notInstalled(String)
    case refused(uri: String, reason: String)
    case instantiationFailed(String)
    case noSlot(bus: String, index: Int, count: Int)
    case unknownBus(String)
    case badChain(String)

    public var description: String {
        switch self {
        case .notInstalled(let uri): "no LV2 plugin with URI '\(uri)' is installed (see `entrain lv2 list`)"
        case .refused(let uri, let reason): "cannot host \(uri): it \(reason)"
        case .instantiationFailed(let uri): "\(uri) refused to start (its instantiate call failed)"
        case .noSlot(let bus, let index, let count): "bus \(bus) has no slot \(index + 1) (it has \(count), from 1)"
        case .unknownBus(let name): "unknown bus '\(name)' (entrainment, ambient or haptic)"
        case .badChain(let why): "cannot read the chain: \(why)"
        }
    }
}
