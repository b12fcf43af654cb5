import CLilv
import EntrainEngine
import Foundation

/// One plugin made ready for an insert chain, owned by the control side: its instances
/// (instantiated, connected and activated here, never on the process thread), its buffers and
/// controls, and the slot the engine runs. Freed only once the engine has let go of it.
public final class LoadedInsert: @unchecked Sendable {
    public let plugin: LV2Plugin
    public let slot: UnsafeMutablePointer<InsertSlot>
    private let instances: [UnsafeMutablePointer<LilvInstance>]
    private let buffers: UnsafeMutablePointer<Float>
    private let controls: UnsafeMutablePointer<Float>
    private var extra: [UnsafeMutableRawPointer] = []
    private var atomOutputs: [UnsafeMutableRawPointer] = []
    private let features: [LV2Features]
    private let urids: URIDMap
    /// lilv's library list is shared: instances are made and freed under its lock.
    private let world: LV2World
    private let channels: [UnsafeMutablePointer<WorkerChannel>]
    private var worker: WorkerThread?
    /// Whether it is heard (false: bypassed), as last asked.
    public var heard = true
    /// Input control values as last sent (what a query answers before the engine has them).
    public var sent: [Int: Float] = [:]
    /// The last engine frame a change for it was stamped with: it is freed only after that.
    var lastFrame: Int64 = 0

    /// Load `uri` for a stereo bus (or the mono one: `mono`) at `sampleRate`; it fades in over
    /// `fadeFrames` once the engine takes it. Throws with the reason when it is not installed or
    /// cannot be hosted.
    public init(_ uri: String, world: LV2World, sampleRate: Double, fadeFrames: Int, mono: Bool = false) throws {
        guard let installed = world.plugin(uri) else { throw LV2Error.notInstalled(uri) }
        if let reason = installed.insertRefusal { throw LV2Error.refused(uri: uri, reason: reason) }
        if mono, installed.isInstrument {
            throw LV2Error.refused(uri: uri, reason: "is an instrument; instruments play on the entrainment and ambient buses")
        }
        if mono, installed.ports(.audioIn).count != 1 {
            throw LV2Error.refused(uri: uri, reason: "is stereo; the haptic bus is mono and takes plugins with 1 audio input and 1 output")
        }
        let plugin = installed.at(sampleRate: sampleRate)
        self.plugin = plugin
        // A mono plugin on a stereo bus runs as a linked pair; on the mono bus, alone.
        let pair = !mono && !plugin.isPlayable && plugin.ports(.audioIn).count == 1
        // Each instance its own features: its worker channel is its own.
        let channels = (0..<(pair ? 2 : 1)).map { _ in WorkerChannel.make() }
        let features = channels.map { LV2Features(urids: world.urids, sampleRate: sampleRate, maxBlock: Engine.maximumChunkFrames, worker: $0) }
        self.channels = channels
        self.features = features
        self.world = world
        urids = world.urids
        var made: [UnsafeMutablePointer<LilvInstance>] = []
        world.lock.withLock {
            guard let p = world.lilvPlugin(uri) else { return }
            for f in features {
                guard let instance = FloatingPointGuard.keeping({ lilv_plugin_instantiate(p, sampleRate, f.array) }) else { break }
                made.append(instance)
            }
        }
        guard made.count == (pair ? 2 : 1), let run = made[0].pointee.lv2_descriptor.pointee.run else {
            for instance in made { lilv_instance_free(instance) }
            for channel in channels { WorkerChannel.free(channel) }
            throw LV2Error.instantiationFailed(uri)
        }
        for (channel, instance) in zip(channels, made) {
            channel.pointee.instance = instance.pointee.lv2_handle
            channel.pointee.interface = lilv_instance_get_extension_data(instance, "http://lv2plug.in/ns/ext/worker#interface")?
                .assumingMemoryBound(to: LV2_Worker_Interface.self)
        }
        instances = made
        buffers = .allocate(capacity: InsertSlot.bufferFrames)
        buffers.initialize(repeating: 0, count: InsertSlot.bufferFrames)
        controls = .allocate(capacity: max(1, plugin.ports.count))
        controls.initialize(repeating: 0, count: max(1, plugin.ports.count))
        for port in plugin.ports where port.kind == .controlIn { controls[port.index] = port.startValue }
        slot = .allocate(capacity: 1)
        slot.initialize(to: InsertSlot(first: made[0].pointee.lv2_handle, second: pair ? made[1].pointee.lv2_handle : nil,
                                       run: run, buffers: buffers, controls: controls, fadeFrames: fadeFrames))
        for (k, instance) in made.enumerated() { connect(instance, side: k, pair: pair, urids: world.urids) }
        if !atomOutputs.isEmpty {
            let list = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: atomOutputs.count)
            list.initialize(from: atomOutputs, count: atomOutputs.count)
            extra.append(UnsafeMutableRawPointer(list))
            slot.pointee.offerAtomOutputs(list, count: atomOutputs.count, capacity: UInt32(LV2Features.sequenceSize - 8),
                                          chunkType: world.urids.map("http://lv2plug.in/ns/ext/atom#Chunk"))
        }
        if channels.contains(where: { $0.pointee.interface != nil }) {
            let list = UnsafeMutablePointer<UnsafeMutablePointer<WorkerChannel>>.allocate(capacity: channels.count)
            list.initialize(from: channels, count: channels.count)
            extra.append(UnsafeMutableRawPointer(list))
            slot.pointee.afterRun(deliverWorkerResponses, context: UnsafeMutableRawPointer(list), count: channels.count)
            worker = WorkerThread(channels)
        }
        FloatingPointGuard.keeping { for instance in made { lilv_instance_activate(instance) } }
    }

    /// Every port gets memory: audio to the slot's buffers (a pair: one side each), controls to
    /// the shared array, atom inputs to an empty sequence, atom and CV outputs to scratch.
    private func connect(_ instance: UnsafeMutablePointer<LilvInstance>, side: Int, pair: Bool, urids: URIDMap) {
        let s = slot.pointee
        var audioIn = 0, audioOut = 0
        for port in plugin.ports {
            let at = UInt32(port.index)
            switch port.kind {
            case .controlIn, .controlOut: lilv_instance_connect_port(instance, at, controls + port.index)
            case .audioIn:
                let left = pair ? side == 0 : audioIn == 0
                lilv_instance_connect_port(instance, at, left ? s.inLeft : s.inRight)
                audioIn += 1
            case .audioOut:
                let left = pair ? side == 0 : audioOut == 0
                lilv_instance_connect_port(instance, at, left ? s.outLeft : s.outRight)
                audioOut += 1
            case .atomIn, .atomOut:
                let bytes = Int(LV2Features.sequenceSize)
                let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 8)
                memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                // An empty sequence in; out: the whole buffer offered as a chunk.
                let input = port.kind == .atomIn
                memory.storeBytes(of: UInt32(input ? 8 : bytes - 8), toByteOffset: 0, as: UInt32.self)
                memory.storeBytes(of: urids.map("http://lv2plug.in/ns/ext/atom#" + (input ? "Sequence" : "Chunk")), toByteOffset: 4, as: UInt32.self)
                extra.append(memory)
                if !input { atomOutputs.append(memory) }
                if input, port.takesMIDI, plugin.isPlayable, slot.pointee.midiIn == nil {
                    slot.pointee.playChords(into: memory, midiType: urids.map(LV2URI.midiEvent), monoOut: plugin.ports(.audioOut).count == 1)
                }
                lilv_instance_connect_port(instance, at, memory)
            case .cvIn, .cvOut:
                let memory = UnsafeMutablePointer<Float>.allocate(capacity: Engine.maximumChunkFrames)
                memory.initialize(repeating: 0, count: Engine.maximumChunkFrames)
                extra.append(UnsafeMutableRawPointer(memory))
                lilv_instance_connect_port(instance, at, memory)
            case .other: lilv_instance_connect_port(instance, at, nil)
            }
        }
    }

    /// Set `symbol` before the engine has the slot (a chain being restored): straight into the
    /// control array, checked against the port's range.
    func preset(_ symbol: String, _ value: Float) throws {
        guard let port = plugin.ports.first(where: { $0.symbol == symbol && $0.kind == .controlIn }) else {
            throw LV2Error.badChain("\(plugin.uri) has no input control '\(symbol)'")
        }
        if let lo = port.minimum, let hi = port.maximum, lo <= hi, !(lo...hi).contains(value) {
            throw LV2Error.badChain("\(symbol)=\(value) is out of range \(lo)–\(hi) (\(plugin.uri))")
        }
        controls[port.index] = value
        sent[port.index] = value
    }

    /// Give it a saved internal state (before the engine has the slot: restore may not run
    /// beside `run`); a linked pair's instances both take it.
    func presetState(_ state: PluginState, folders: [URL]) throws {
        try StateFiles.check(state, uri: plugin.uri, folders: folders)
        for (instance, f) in zip(instances, features) { try state.restore(into: instance, uri: plugin.uri, urids: urids, features: f.array) }
    }

    /// Its internal state now (nil: it keeps none); saving may run beside `run`.
    public var state: PluginState? {
        PluginState.save(instances[0], urids: urids, features: features[0].array).flatMap { $0.properties.isEmpty ? nil : $0 }
    }

    /// Start bypassed (before the engine has the slot).
    func presetBypassed() {
        heard = false
        slot.pointee.heard(false, frames: 1)
    }

    /// This slot as chain text.
    var text: ChainText.Slot {
        ChainText.Slot(uri: plugin.uri, values: plugin.ports.filter { $0.kind == .controlIn }.map { ($0.symbol, value($0.index)) }, heard: heard,
                       state: state?.encoded)
    }

    /// The value of control port `index` now (outputs: as the plugin last wrote it).
    public func value(_ index: Int) -> Float { sent[index] ?? controls[index] }

    /// Deactivate and free everything. Only once the engine holds no chain containing the slot;
    /// it waits for the worker to finish its job (see InsertChains.tearDown).
    func free() {
        worker?.stop()
        world.lock.withLock {
            FloatingPointGuard.keeping {
                for instance in instances {
                    lilv_instance_deactivate(instance)
                    lilv_instance_free(instance)
                }
            }
        }
        slot.deinitialize(count: 1).deallocate()
        buffers.deallocate()
        controls.deallocate()
        for p in extra { p.deallocate() }
        for channel in channels { WorkerChannel.free(channel) }
    }
}
