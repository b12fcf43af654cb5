/// The slots of one bus, in order: built and freed off the thread, handed to the engine whole
/// (through the command ring) and handed back whole when replaced. Slots are shared between the
/// old chain and the new, so a plugin keeps its state across an add, a remove or a move.
public struct InsertChain {
    public let count: Int
    public let slots: UnsafeMutablePointer<UnsafeMutablePointer<InsertSlot>>

    public init(_ slots: [UnsafeMutablePointer<InsertSlot>]) {
        count = slots.count
        self.slots = .allocate(capacity: max(1, slots.count))
        for (i, slot) in slots.enumerated() { (self.slots + i).initialize(to: slot) }
    }

    public func deallocate() { slots.deallocate() }

    @inline(__always)
    func process(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int, chord: ChordNotes, start: Int64) {
        for i in 0..<count { slots[i].pointee.process(left, right, frames: frames, chord: chord, start: start) }
    }
}

/// The output buses that take insert chains (before their ceiling limiter, which stays last).
/// The haptic bus is mono: its plugins have one audio input and one output.
public enum InsertBus: Int, CaseIterable, Sendable {
    case entrainment, ambient, haptic

    public var name: String {
        switch self {
        case .entrainment: "entrainment"
        case .ambient: "ambient"
        case .haptic: "haptic"
        }
    }

    public var isMono: Bool { self == .haptic }
}
