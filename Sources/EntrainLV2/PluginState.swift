import CLilv
import Foundation

/// A plugin's internal state through its `state:interface` (an impulse response's file, a
/// sample, settings that are no control port), in our own form: a JSON list of properties
/// (key URI, type URI, flags, value bytes), base64-encoded so it sits in chain text as one word
/// `state=…`. Saved from a running instance (allowed concurrently with `run`), restored only
/// into a fresh instance before the engine has it (restore may not run beside `run`).
public struct PluginState: Equatable, Sendable {
    struct Property: Codable, Equatable {
        var key: String
        var type: String
        var flags: UInt32
        var value: Data
    }

    var properties: [Property]

    /// The one-word form chain text carries.
    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return ((try? encoder.encode(properties)) ?? Data("[]".utf8)).base64EncodedString()
    }

    init(properties: [Property]) { self.properties = properties }

    /// Parse the one-word form; a malformed one is an error saying so.
    public init(decoding word: String) throws {
        guard let data = Data(base64Encoded: word) else { throw LV2Error.badChain("state=… is not base64") }
        do {
            properties = try JSONDecoder().decode([Property].self, from: data)
        } catch {
            throw LV2Error.badChain("state=… is not a list of properties (\(error.localizedDescription))")
        }
    }

    /// The state interface of `instance`, when the plugin has one.
    static func interface(_ instance: UnsafeMutablePointer<LilvInstance>) -> UnsafePointer<LV2_State_Interface>? {
        lilv_instance_get_extension_data(instance, "http://lv2plug.in/ns/ext/state#interface").map { UnsafePointer($0.assumingMemoryBound(to: LV2_State_Interface.self)) }
    }

    /// Ask `instance` for its state (nil when it has no state interface or saving failed).
    static func save(_ instance: UnsafeMutablePointer<LilvInstance>, urids: URIDMap,
                     features: UnsafePointer<UnsafePointer<LV2_Feature>?>) -> PluginState? {
        guard let interface = interface(instance), let save = interface.pointee.save else { return nil }
        let box = Collector(urids)
        let handle = Unmanaged.passUnretained(box).toOpaque()
        let status = StatePathFeatures.adding(to: features) { features in FloatingPointGuard.keeping {
            save(instance.pointee.lv2_handle, { handle, key, value, size, type, flags in
                guard let handle, let value else { return LV2_STATE_ERR_UNKNOWN }
                let box = Unmanaged<Collector>.fromOpaque(handle).takeUnretainedValue()
                guard let keyURI = box.urids.unmap(key), let typeURI = box.urids.unmap(type) else { return LV2_STATE_ERR_BAD_TYPE }
                box.properties.append(Property(key: String(cString: keyURI), type: String(cString: typeURI), flags: flags,
                                               value: Data(bytes: value, count: size)))
                return LV2_STATE_SUCCESS
            }, handle, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features)
        } }
        guard status == LV2_STATE_SUCCESS else { return nil }
        return PluginState(properties: box.properties)
    }

    /// Give this state to `instance` (a fresh one the engine does not run yet). Throws with the
    /// plugin's refusal.
    func restore(into instance: UnsafeMutablePointer<LilvInstance>, uri: String, urids: URIDMap,
                 features: UnsafePointer<UnsafePointer<LV2_Feature>?>) throws {
        guard let interface = Self.interface(instance), let restore = interface.pointee.restore else {
            throw LV2Error.badChain("\(uri) keeps no state (it has no state interface)")
        }
        let box = Supplier(properties, urids)
        defer { box.free() }
        let handle = Unmanaged.passUnretained(box).toOpaque()
        let status = StatePathFeatures.adding(to: features) { features in FloatingPointGuard.keeping {
            restore(instance.pointee.lv2_handle, { handle, key, size, type, flags in
                guard let handle else { return nil }
                let box = Unmanaged<Supplier>.fromOpaque(handle).takeUnretainedValue()
                guard let found = box.values[key] else { return nil }
                size?.pointee = found.size
                type?.pointee = found.type
                flags?.pointee = found.flags
                return UnsafeRawPointer(found.bytes)
            }, handle, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features)
        } }
        guard status == LV2_STATE_SUCCESS else { throw LV2Error.badChain("\(uri) refused its saved state (status \(status.rawValue))") }
    }

    /// What the store callback fills.
    private final class Collector {
        let urids: URIDMap
        var properties: [Property] = []
        init(_ urids: URIDMap) { self.urids = urids }
    }

    /// What the retrieve callback reads: values copied to memory that stays put until restore returns.
    private final class Supplier {
        var values: [UInt32: (bytes: UnsafeMutableRawPointer, size: Int, type: UInt32, flags: UInt32)] = [:]
        init(_ properties: [Property], _ urids: URIDMap) {
            for p in properties {
                let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(1, p.value.count), alignment: 8)
                p.value.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: p.value.count)
                values[urids.map(p.key)] = (bytes, p.value.count, urids.map(p.type), p.flags)
            }
        }
        func free() { for v in values.values { v.bytes.deallocate() } }
    }
}
