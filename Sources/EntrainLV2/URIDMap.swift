import CLilv
import Foundation
import Synchronization

/// URIs ↔ small numbers for every plugin of the process (the urid:map and urid:unmap
/// features). Plugins map at instantiation; the lock is never taken by our process thread.
public final class URIDMap: Sendable {
    private struct Table {
        var ids: [String: UInt32] = [:]
        var uris: [UnsafeMutablePointer<CChar>] = []  // kept for the process's life: plugins keep the pointers unmap gives
    }

    private let table = Mutex(Table())

    public func map(_ uri: String) -> UInt32 {
        table.withLock { t in
            if let id = t.ids[uri] { return id }
            t.uris.append(strdup(uri))
            let id = UInt32(t.uris.count)
            t.ids[uri] = id
            return id
        }
    }

    func unmap(_ id: UInt32) -> UnsafePointer<CChar>? {
        table.withLock { t in id >= 1 && Int(id) <= t.uris.count ? UnsafePointer(t.uris[Int(id) - 1]) : nil }
    }
}

/// The features handed to one plugin instance (and kept as long as it lives: plugins hold the
/// pointers): urid map/unmap, the options (block length bounds, sample rate, sequence size)
/// and the bounded-block-length promise.
final class LV2Features {
    let array: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    private var owned: [UnsafeMutableRawPointer] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private let count: Int
    /// Largest atom sequence a port buffer holds, bytes.
    static let sequenceSize: Int32 = 8192

    init(urids: URIDMap, sampleRate: Double, maxBlock: Int, worker: UnsafeMutablePointer<WorkerChannel>) {
        let mapHandle = Unmanaged.passUnretained(urids).toOpaque()
        let map = UnsafeMutablePointer<LV2_URID_Map>.allocate(capacity: 1)
        map.initialize(to: LV2_URID_Map(handle: mapHandle, map: { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
        }))
        let unmap = UnsafeMutablePointer<LV2_URID_Unmap>.allocate(capacity: 1)
        unmap.initialize(to: LV2_URID_Unmap(handle: mapHandle, unmap: { handle, id in
            guard let handle else { return nil }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().unmap(id)
        }))
        // Option values: min block 1, max block, nominal block, sequence size (Int), sample rate (Float).
        let ints = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        ints.initialize(from: [1, Int32(maxBlock), Int32(min(maxBlock, 1024)), Self.sequenceSize], count: 4)
        let rate = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        rate.initialize(to: Float(sampleRate))
        let atomInt = urids.map("http://lv2plug.in/ns/ext/atom#Int"), atomFloat = urids.map("http://lv2plug.in/ns/ext/atom#Float")
        let bufSize = "http://lv2plug.in/ns/ext/buf-size#"
        func option(_ key: String, _ type: UInt32, _ size: Int, _ value: UnsafeRawPointer?) -> LV2_Options_Option {
            LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: key.isEmpty ? 0 : urids.map(key),
                               size: UInt32(size), type: type, value: value)
        }
        let options = UnsafeMutablePointer<LV2_Options_Option>.allocate(capacity: 6)
        options.initialize(from: [
            option(bufSize + "minBlockLength", atomInt, 4, ints),
            option(bufSize + "maxBlockLength", atomInt, 4, ints + 1),
            option(bufSize + "nominalBlockLength", atomInt, 4, ints + 2),
            option(bufSize + "sequenceSize", atomInt, 4, ints + 3),
            option("http://lv2plug.in/ns/ext/parameters#sampleRate", atomFloat, 4, rate),
            option("", 0, 0, nil),
        ], count: 6)
        owned = [UnsafeMutableRawPointer(map), UnsafeMutableRawPointer(unmap), UnsafeMutableRawPointer(ints),
                 UnsafeMutableRawPointer(rate), UnsafeMutableRawPointer(options)]
        let list: [(String, UnsafeMutableRawPointer?)] = [
            ("http://lv2plug.in/ns/ext/urid#map", UnsafeMutableRawPointer(map)),
            ("http://lv2plug.in/ns/ext/urid#unmap", UnsafeMutableRawPointer(unmap)),
            ("http://lv2plug.in/ns/ext/options#options", UnsafeMutableRawPointer(options)),
            (bufSize + "boundedBlockLength", nil),
            ("http://lv2plug.in/ns/ext/worker#schedule", UnsafeMutableRawPointer(worker).advanced(by: MemoryLayout<WorkerChannel>.offset(of: \WorkerChannel.schedule)!)),
        ]
        count = list.count
        let features = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: list.count)
        array = .allocate(capacity: list.count + 1)
        for (i, (uri, data)) in list.enumerated() {
            let s = strdup(uri)!
            strings.append(s)
            (features + i).initialize(to: LV2_Feature(URI: s, data: data))
            (array + i).initialize(to: UnsafePointer(features + i))
        }
        (array + list.count).initialize(to: nil)
        owned.append(UnsafeMutableRawPointer(features))
    }

    deinit {
        array.deallocate()
        for p in owned { p.deallocate() }
        for s in strings { free(s) }
    }
}
