import EntrainCore
import EntrainEngine
import Foundation
import Synchronization

/// The insert chains of every bus, control side: loads plugins off the process thread, sends
/// each new chain to the engine through its command ring, and frees what the engine has let go
/// of. Changes fade: a new slot fades in, a removed one fades out before the chain without it
/// is taken, bypass crossfades, so nothing clicks.
public final class InsertChains: @unchecked Sendable {
    /// Crossfade length for add, remove and bypass.
    public static let fadeSeconds = 0.02

    public let world: LV2World
    let host: EngineHost
    private let lock = NSLock()
    private var slots: [InsertBus: [LoadedInsert]] = [:]
    /// The chain last sent per bus and the frame it was sent for (later ones never come sooner).
    private var sent: [InsertBus: (chain: UnsafeMutablePointer<InsertChain>?, frame: Int64)] = [:]
    /// Slots to free once the chain (address) that still holds them comes back.
    private var toFree: [(slot: LoadedInsert, after: UnsafeMutablePointer<InsertChain>)] = []
    /// Called after each change of a chain (the address space's tree changed).
    public var onChange: (@Sendable () -> Void)?
    /// The folders a plugin's saved state may name files in (see StateFiles).
    public var stateFolders = StateFiles.allowedFolders

    public init(host: EngineHost, world: LV2World = .shared) {
        self.host = host
        self.world = world
    }

    var fadeFrames: Int { Int(Self.fadeSeconds * host.sampleRate) }

    /// The slots of `bus` in order.
    public func chain(_ bus: InsertBus) -> [LoadedInsert] { lock.withLock { slots[bus] ?? [] } }

    /// Load `uri` and append it to `bus`'s chain; returns its slot index.
    @discardableResult
    public func add(_ uri: String, to bus: InsertBus) throws -> Int {
        let loaded = try LoadedInsert(uri, world: world, sampleRate: host.sampleRate, fadeFrames: fadeFrames, mono: bus.isMono)
        let index = try lock.withLock {
            var list = slots[bus] ?? []
            list.append(loaded)
            try send(list, to: bus, dropping: [], at: Command.now)
            return list.count - 1
        }
        onChange?()
        return index
    }

    /// `bus`'s chain as text (what presets store).
    public func text(_ bus: InsertBus) -> ChainText { ChainText(chain(bus).map(\.text)) }

    /// Make `bus`'s chain `wanted`. The same plugins in the same order keep their instances and
    /// take the new values; otherwise every plugin is loaded first (nothing changes if one
    /// fails), the old chain fades out and the new one fades in.
    public func replace(_ bus: InsertBus, with wanted: ChainText, at frame: Int64? = nil) throws {
        let current = chain(bus)
        // A state can only be restored into a fresh instance: a changed one reloads the chain.
        let sameStates = zip(current, wanted.slots).allSatisfy { loaded, slot in slot.state == nil || slot.state == loaded.state?.encoded }
        if current.map(\.plugin.uri) == wanted.slots.map(\.uri), sameStates {
            for (i, (loaded, slot)) in zip(current, wanted.slots).enumerated() {
                for (symbol, value) in slot.values {
                    guard let port = loaded.plugin.ports.first(where: { $0.symbol == symbol && $0.kind == .controlIn }) else {
                        throw LV2Error.badChain("\(slot.uri) has no input control '\(symbol)'")
                    }
                    if loaded.value(port.index) != value { try setControl(port.index, to: value, slot: i, on: bus, at: frame) }
                }
                if loaded.heard != slot.heard { try setHeard(slot.heard, slot: i, on: bus, at: frame) }
            }
            return
        }
        var made: [LoadedInsert] = []
        do {
            for slot in wanted.slots {
                let loaded = try LoadedInsert(slot.uri, world: world, sampleRate: host.sampleRate, fadeFrames: fadeFrames, mono: bus.isMono)
                made.append(loaded)
                for (symbol, value) in slot.values { try loaded.preset(symbol, value) }
                if let state = slot.state { try loaded.presetState(PluginState(decoding: state), folders: stateFolders) }
                if !slot.heard { loaded.presetBypassed() }
            }
        } catch {
            for loaded in made { loaded.free() }
            throw error
        }
        try lock.withLock {
            let old = slots[bus] ?? []
            for gone in old { try host.send(.insertHeard(gone.slot, false, fadeFrames: fadeFrames)) }
            let when = old.isEmpty ? 0 : host.frame + Int64(2 * fadeFrames + Engine.maximumChunkFrames)
            try send(made, to: bus, dropping: old, at: when)
        }
        onChange?()
    }

    /// Fade slot `index` out, then take it out of the chain and free it.
    public func remove(_ index: Int, from bus: InsertBus) throws {
        try lock.withLock {
            var list = slots[bus] ?? []
            guard list.indices.contains(index) else { throw LV2Error.noSlot(bus: bus.name, index: index, count: list.count) }
            let gone = list.remove(at: index)
            let now = host.frame
            try host.send(.insertHeard(gone.slot, false, fadeFrames: fadeFrames))
            try send(list, to: bus, dropping: [gone], at: now + Int64(2 * fadeFrames + Engine.maximumChunkFrames))
        }
        onChange?()
    }

    /// Move slot `from` to position `to` (a reorder: the chain is swapped between chunks).
    public func move(_ from: Int, to: Int, on bus: InsertBus) throws {
        try lock.withLock {
            var list = slots[bus] ?? []
            guard list.indices.contains(from) else { throw LV2Error.noSlot(bus: bus.name, index: from, count: list.count) }
            guard list.indices.contains(to) else { throw LV2Error.noSlot(bus: bus.name, index: to, count: list.count) }
            list.insert(list.remove(at: from), at: to)
            try send(list, to: bus, dropping: [], at: Command.now)
        }
        onChange?()
    }

    /// Hear slot `index` or bypass it, through the crossfade.
    public func setHeard(_ heard: Bool, slot index: Int, on bus: InsertBus, at frame: Int64? = nil) throws {
        try lock.withLock {
            let loaded = try slot(index, bus)
            try host.send(.insertHeard(loaded.slot, heard, fadeFrames: fadeFrames, at: Command.frame(frame)))
            loaded.heard = heard
            loaded.lastFrame = max(loaded.lastFrame, frame ?? host.frame)  // now: no earlier than the engine stands
        }
    }

    /// Set control port `port` of slot `index` on `frame` (nil: the next period).
    public func setControl(_ port: Int, to value: Float, slot index: Int, on bus: InsertBus, at frame: Int64? = nil) throws {
        try lock.withLock {
            let loaded = try slot(index, bus)
            try host.send(.insertControl(loaded.slot, port: port, to: value, at: Command.frame(frame)))
            loaded.sent[port] = value
            loaded.lastFrame = max(loaded.lastFrame, frame ?? host.frame)  // now: no earlier than the engine stands
        }
    }

    /// Free what the engine has handed back (every change calls it; a live loop may too).
    public func collect() {
        lock.withLock { collectLocked() }
    }

    /// Frames the chains of every sound bus delay the sound by (the largest bus's sum of
    /// reported latencies; the haptic bus's own plugins only make the touch later).
    public var latencyFrames: Int {
        lock.withLock {
            InsertBus.allCases.filter { !$0.isMono }.map { bus in
                (slots[bus] ?? []).reduce(0) { sum, s in
                    sum + (s.plugin.latencyPort.map { Int(max(0, s.value($0.index)).rounded()) } ?? 0)
                }
            }.max() ?? 0
        }
    }

    /// Publish the chains' latency to the engine (ports, light, haptics) if it changed since the
    /// last call; returns whether it did. Plugins report it as they run, so this is polled.
    @discardableResult
    public func publishLatency() -> Bool {
        let frames = latencyFrames
        return host.status.pointee.insertLatency.exchange(frames, ordering: .relaxed) != frames
    }

    private func slot(_ index: Int, _ bus: InsertBus) throws -> LoadedInsert {
        let list = slots[bus] ?? []
        guard list.indices.contains(index) else { throw LV2Error.noSlot(bus: bus.name, index: index, count: list.count) }
        return list[index]
    }

    /// Build the chain `list` and send it for `frame` (never earlier than the last one sent, so
    /// chains arrive in the order made); `dropping` is freed once the chain it replaces returns.
    private func send(_ list: [LoadedInsert], to bus: InsertBus, dropping: [LoadedInsert], at frame: Int64) throws {
        collectLocked()
        let previous = sent[bus]
        let when = max(frame, previous?.frame ?? Command.now)
        let chain: UnsafeMutablePointer<InsertChain>?
        if list.isEmpty {
            chain = nil
        } else {
            chain = .allocate(capacity: 1)
            chain!.initialize(to: InsertChain(list.map(\.slot)))
        }
        do {
            try host.send(.insertChain(bus, chain, at: when))
        } catch {
            if let chain { chain.pointee.deallocate(); chain.deallocate() }
            throw error
        }
        slots[bus] = list
        sent[bus] = (chain, when)
        for gone in dropping {
            // No chain before: nothing of the engine's holds it.
            if let old = previous?.chain { toFree.append((gone, old)) } else { Self.tearDown(gone) }
        }
    }

    /// Free a slot the engine has let go of, on a thread of its own: its worker may be busy (a
    /// plugin reading a large file, or stuck in it), and waiting for it here would hold the
    /// chains' lock — and the OSC thread behind it, queries, saves and all — until it finished.
    private static func tearDown(_ slot: LoadedInsert) {
        DispatchQueue.global(qos: .utility).async { slot.free() }
    }

    private func collectLocked() {
        while let retired = host.nextRetiredInsertChain() {
            let frame = host.frame
            toFree.removeAll { entry in
                guard entry.after == retired, entry.slot.lastFrame <= frame else { return false }
                Self.tearDown(entry.slot)
                return true
            }
            retired.pointee.deallocate()
            retired.deallocate()
        }
    }
}
