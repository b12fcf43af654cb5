import Foundation

/// An LV2 bundle written by a test: a plugin whose data requires a host feature entrain does not
/// provide (instance access). No installed plugin requires one, and a refusal reads the data
/// only, so no binary is needed.
public enum LV2TestBundle {
    public static let uri = "urn:entrain:test:needs-instance-access"

    /// Write the bundle into `parent` (an LV2_PATH directory); returns the bundle's folder.
    public static func needingInstanceAccess(in parent: URL) throws -> URL {
        let folder = parent.appendingPathComponent("needs-instance-access.lv2")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        <\(uri)> a lv2:Plugin ; lv2:binary <plugin.so> ; <http://www.w3.org/2000/01/rdf-schema#seeAlso> <plugin.ttl> .
        """.write(to: folder.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        <\(uri)> a lv2:Plugin ; doap:name "Needs instance access" ;
            lv2:requiredFeature <http://lv2plug.in/ns/ext/instance-access> ;
            lv2:port [ a lv2:AudioPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                     [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] .
        """.write(to: folder.appendingPathComponent("plugin.ttl"), atomically: true, encoding: .utf8)
        return folder
    }

    /// The refusal entrain gives for it.
    public static let refusal = "cannot host \(uri): it needs the host feature http://lv2plug.in/ns/ext/instance-access, which entrain does not provide"
}
