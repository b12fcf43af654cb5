import CLilv
import Foundation

/// The `state:mapPath` and `state:freePath` features save and restore hand a plugin (x42's
/// convolvers refuse to restore without them). Paths are kept as they are (absolute): a
/// state names its files where they lie, like the rest of entrain's settings.
enum StatePathFeatures {
    /// Both feature structs, made once for the process (plugins may keep the pointers).
    nonisolated(unsafe) private static let features: (map: UnsafeMutablePointer<LV2_Feature>, free: UnsafeMutablePointer<LV2_Feature>) = {
        let map = UnsafeMutablePointer<LV2_State_Map_Path>.allocate(capacity: 1)
        map.initialize(to: LV2_State_Map_Path(handle: nil, abstract_path: { _, path in path.flatMap { strdup($0) } },
                                              absolute_path: { _, path in path.flatMap { strdup($0) } }))
        let free = UnsafeMutablePointer<LV2_State_Free_Path>.allocate(capacity: 1)
        free.initialize(to: LV2_State_Free_Path(handle: nil, free_path: { _, path in Foundation.free(path) }))
        let mapFeature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
        mapFeature.initialize(to: LV2_Feature(URI: strdup("http://lv2plug.in/ns/ext/state#mapPath"), data: UnsafeMutableRawPointer(map)))
        let freeFeature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
        freeFeature.initialize(to: LV2_Feature(URI: strdup("http://lv2plug.in/ns/ext/state#freePath"), data: UnsafeMutableRawPointer(free)))
        return (mapFeature, freeFeature)
    }()

    /// Call `body` with `base` (a null-terminated feature list) plus the two path features.
    static func adding<T>(to base: UnsafePointer<UnsafePointer<LV2_Feature>?>, _ body: (UnsafePointer<UnsafePointer<LV2_Feature>?>) throws -> T) rethrows -> T {
        var list: [UnsafePointer<LV2_Feature>?] = []
        var i = 0
        while let feature = base[i] { list.append(feature); i += 1 }
        list += [UnsafePointer(features.map), UnsafePointer(features.free), nil]
        return try list.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
