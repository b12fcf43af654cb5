import EntrainFiles
import Foundation

/// One pixel output of a rig file: a strip or a matrix, where its frames go and how.
public struct PixelOutputSpec: Sendable, Equatable {
    public enum Wire: String, Sendable, CaseIterable { case ddp, sacn, artnet }
    public enum Layout: String, Sendable { case strip, matrix }

    /// Its family's name: `/pixels/NAME/…`.
    public var name: String
    public var pixels: Int
    public var layout: Layout
    /// A matrix's columns (rows = pixels / width); pixels run along a row, every other row
    /// backwards when `serpentine` (as most matrices are wired).
    public var width: Int
    public var serpentine: Bool
    public var wire: Wire
    public var address: SocketAddress
    /// The first universe (sACN 1…63999, Art-Net port address 0…32767); more follow as needed.
    public var universe: Int
    /// The channels of a pixel in wire order, as indices into r, g, b, w ("grb": [1, 0, 2]).
    public var order: [Int]
    /// Frames a second.
    public var rate: Double

    public var bytesPerPixel: Int { order.count }
    public var height: Int { layout == .matrix ? pixels / width : 1 }
    /// Pixels a DMX universe carries (whole pixels only: 170 RGB, 128 RGBW).
    public var pixelsPerUniverse: Int { 512 / bytesPerPixel }
    public var universes: Int { wire == .ddp ? 0 : (pixels + pixelsPerUniverse - 1) / pixelsPerUniverse }

    public static let rates: ClosedRange<Double> = 10...60
    public static let maximumPixels = 16_384
}

/// A rig file (`--pixels FILE`): a JSON list of outputs, or an object whose `outputs` is one.
///
///     [{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "192.168.1.60"},
///      {"name": "wall", "pixels": 340, "layout": "matrix", "width": 34, "protocol": "sacn",
///       "target": "192.168.1.61", "universe": 1, "order": "grb"}]
public enum PixelRig {
    public static func read(_ path: String) throws -> [PixelOutputSpec] {
        let bytes: [UInt8]
        do { bytes = try DocumentFile.bytes(URL(fileURLWithPath: path)) } catch { throw PixelRigError(path, error.reason) }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    public static func parse(_ text: String, file: String = "rig") throws -> [PixelOutputSpec] {
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let error as JSONSyntaxError { throw PixelRigError(file, error.description) }
        let list = root["outputs"] ?? root
        guard case .array(let items) = list.value else { throw PixelRigError(file, at: list, "expected a list of outputs") }
        guard !items.isEmpty else { throw PixelRigError(file, at: list, "no outputs") }
        var outputs: [PixelOutputSpec] = []
        for item in items {
            let output = try self.output(item, file: file)
            if outputs.contains(where: { $0.name == output.name }) { throw PixelRigError(file, at: item, "a second output named '\(output.name)'") }
            outputs.append(output)
        }
        return outputs
    }

    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")

    private static func output(_ node: JSONNode, file: String) throws -> PixelOutputSpec {
        guard case .object(let members) = node.value else { throw PixelRigError(file, at: node, "an output is an object") }
        let known: Set = ["name", "pixels", "layout", "width", "serpentine", "protocol", "target", "universe", "order", "fps"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw PixelRigError(file, at: unknown.value, "unknown field '\(unknown.key)' (\(known.sorted().joined(separator: ", ")))")
        }
        func text(_ key: String) throws -> String? {
            guard let n = node[key] else { return nil }
            guard case .string(let s) = n.value else { throw PixelRigError(file, at: n, "'\(key)' is a string") }
            return s
        }
        func number(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let n = node[key] else { return nil }
            guard case .number(let x) = n.value, x == x.rounded(), range.contains(Int(x)) else {
                throw PixelRigError(file, at: n, "'\(key)' is a whole number \(range.lowerBound)–\(range.upperBound)")
            }
            return Int(x)
        }
        guard let name = try text("name"), !name.isEmpty, name.count <= 32, name.allSatisfy(nameCharacters.contains) else {
            throw PixelRigError(file, at: node["name"] ?? node, "'name' is 1–32 of a-z, 0-9, - and _ (it becomes /pixels/NAME/…)")
        }
        guard let pixels = try number("pixels", 1...PixelOutputSpec.maximumPixels) else { throw PixelRigError(file, at: node, "'pixels' is missing") }
        guard let wireName = try text("protocol"), let wire = PixelOutputSpec.Wire(rawValue: wireName.lowercased()) else {
            throw PixelRigError(file, at: node["protocol"] ?? node, "'protocol' is ddp, sacn or artnet")
        }
        let layoutName = try text("layout") ?? "strip"
        guard let layout = PixelOutputSpec.Layout(rawValue: layoutName) else {
            throw PixelRigError(file, at: node["layout"] ?? node, "'layout' is strip or matrix")
        }
        let width = try number("width", 1...PixelOutputSpec.maximumPixels) ?? pixels
        if layout == .matrix && (node["width"] == nil || pixels % width != 0) {
            throw PixelRigError(file, at: node["width"] ?? node, "a matrix needs a 'width' that divides its \(pixels) pixels")
        }
        var serpentine = true
        if let s = node["serpentine"] {
            guard case .bool(let b) = s.value else { throw PixelRigError(file, at: s, "'serpentine' is true or false") }
            serpentine = b
        }
        let orderName = (try text("order") ?? "rgb").lowercased()
        let order = orderName.compactMap { "rgbw".firstIndex(of: $0).map { "rgbw".distance(from: "rgbw".startIndex, to: $0) } }
        guard (3...4).contains(orderName.count), order.count == orderName.count, Set(order).count == order.count, Set(order).isSuperset(of: [0, 1, 2]) else {
            throw PixelRigError(file, at: node["order"] ?? node, "'order' names r, g, b (and w) once each, like rgb, grb or rgbw")
        }
        let defaultPort = wire == .ddp ? DDPPacket.port : wire == .sacn ? SACNPacket.port : ArtNetPacket.port
        guard let targetText = try text("target"), let address = PixelRigAddress.parse(targetText, defaultPort: defaultPort) else {
            throw PixelRigError(file, at: node["target"] ?? node, "'target' is an IPv4 address with an optional port (HOST[:PORT])")
        }
        let universes = wire == .artnet ? ArtNetPacket.universes : SACNPacket.universes
        let universe = try number("universe", universes) ?? (wire == .artnet ? 0 : 1)
        let rate = try number("fps", Int(PixelOutputSpec.rates.lowerBound)...Int(PixelOutputSpec.rates.upperBound)) ?? 50
        var spec = PixelOutputSpec(name: name, pixels: pixels, layout: layout, width: layout == .matrix ? width : pixels, serpentine: serpentine,
                                   wire: wire, address: address, universe: universe, order: order, rate: Double(rate))
        if wire != .ddp && universe + spec.universes - 1 > universes.upperBound {
            throw PixelRigError(file, at: node, "\(pixels) pixels need \(spec.universes) universes from \(universe): past \(universes.upperBound)")
        }
        spec.universe = universe
        return spec
    }
}

enum PixelRigAddress {
    static func parse(_ text: String, defaultPort: UInt16) -> SocketAddress? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let port = parts.count == 2 ? Int(parts[1]) : Int(defaultPort), (1...65535).contains(port) else { return nil }
        return SocketAddress(host: String(parts[0]), port: port)
    }
}

public struct PixelRigError: Error, CustomStringConvertible {
    public let description: String
    init(_ file: String, _ reason: String) { description = "\(file): \(reason)" }
    init(_ file: String, at node: JSONNode, _ reason: String) { description = "\(file):\(node.line):\(node.column): \(reason)" }
}
