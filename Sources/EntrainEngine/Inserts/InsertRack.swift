import EntrainCore

/// The engine's insert chains, one per bus. A new chain arrives by command, waits in `incoming`
/// and is taken at the start of the next chunk (so a chunk never changes path half-way); the one
/// it replaces goes back to the control side on `retired` to be freed there.
struct InsertRack {
    typealias Chain = UnsafeMutablePointer<InsertChain>
    var current: (Chain?, Chain?, Chain?) = (nil, nil, nil)
    var incoming: (Chain?, Chain?, Chain?) = (nil, nil, nil)
    var arrived: (Bool, Bool, Bool) = (false, false, false)
    let retired: UnsafeMutablePointer<RetiredChainRing>
    /// The haptic signal before its ceiling, while the haptic bus has a chain (and a second,
    /// unused side: a chain runs on a pair), `Engine.maximumChunk` frames each.
    let hapticSignal: UnsafeMutablePointer<Float>

    init() {
        retired = .allocate(capacity: 1)
        retired.initialize(to: RetiredChainRing(capacity: 256))
        hapticSignal = .allocate(capacity: 2 * Engine.maximumChunk)
        hapticSignal.initialize(repeating: 0, count: 2 * Engine.maximumChunk)
    }

    func deallocate() {
        retired.deinitialize(count: 1).deallocate()
        hapticSignal.deallocate()
    }

    var entrainment: Chain? { current.0 }
    var ambient: Chain? { current.1 }
    var haptic: Chain? { current.2 }

    @inline(__always)
    mutating func receive(bus: Int, chain: UnsafeMutablePointer<InsertChain>?) {
        // One that arrived and was never taken goes back too: every chain sent returns once.
        switch bus {
        case 0:
            if arrived.0 { retire(incoming.0) }
            incoming.0 = chain; arrived.0 = true
        case 1:
            if arrived.1 { retire(incoming.1) }
            incoming.1 = chain; arrived.1 = true
        default:
            if arrived.2 { retire(incoming.2) }
            incoming.2 = chain; arrived.2 = true
        }
    }

    /// Take what arrived; hand back what it replaces (a full ring keeps it: leaked, never freed early).
    @inline(__always)
    mutating func adoptIncoming() {
        if arrived.0 { retire(current.0); current.0 = incoming.0; arrived.0 = false }
        if arrived.1 { retire(current.1); current.1 = incoming.1; arrived.1 = false }
        if arrived.2 { retire(current.2); current.2 = incoming.2; arrived.2 = false }
    }

    @inline(__always)
    private func retire(_ chain: UnsafeMutablePointer<InsertChain>?) {
        guard let chain else { return }
        _ = retired.pointee.push(UInt(bitPattern: chain))
    }
}

/// Engine → control: chains the engine no longer uses, as addresses.
typealias RetiredChainRing = SPSCRing<UInt>

extension Command {
    /// Replace bus `bus`'s insert chain (nil: none) at the next chunk.
    public static func insertChain(_ bus: InsertBus, _ chain: UnsafeMutablePointer<InsertChain>?, at frame: Int64 = Command.now) -> Command {
        Command(frame: frame, .insertChain(bus: UInt8(bus.rawValue), chain: chain.map(UnsafeMutableRawPointer.init)))
    }

    /// Set control port `port` of `slot` to `value` on `frame` (the plugin sees it from its next run).
    public static func insertControl(_ slot: UnsafeMutablePointer<InsertSlot>, port: Int, to value: Float, at frame: Int64 = Command.now) -> Command {
        Command(frame: frame, .insertControl(slot: UnsafeMutableRawPointer(slot), port: UInt16(port), value: value))
    }

    /// Hear `slot` (or bypass it) through a linear crossfade of `frames`.
    public static func insertHeard(_ slot: UnsafeMutablePointer<InsertSlot>, _ heard: Bool, fadeFrames: Int, at frame: Int64 = Command.now) -> Command {
        Command(frame: frame, .insertHeard(slot: UnsafeMutableRawPointer(slot), heard: heard, fadeFrames: Int32(clamping: fadeFrames)))
    }
}
