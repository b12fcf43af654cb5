import EntrainAddressSpace
import EntrainControl
import EntrainDiscovery

/// The address spaces the layouts must cover: the client's standard families, and the same
/// with a pixel rig (`entrain layout … --pixels FILE`): a strip over DDP and a matrix over sACN.
enum LayoutSpaces {
    static func all() throws -> [(name: String, space: AddressSpace)] {
        let rig = try PixelRig.parse("""
            [{"name": "strip", "pixels": 300, "protocol": "ddp", "target": "127.0.0.1"},
             {"name": "wall", "pixels": 340, "layout": "matrix", "width": 34, "protocol": "sacn", "target": "127.0.0.1"}]
            """)
        return [("standard", AddressSpace(try OSCSchema.standardFamilies())),
                ("with a pixel rig", AddressSpace(try OSCSchema.standardFamilies() + rig.map { PixelFamily($0) as any AddressFamily }))]
    }
}
