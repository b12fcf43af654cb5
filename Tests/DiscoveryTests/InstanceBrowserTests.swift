@testable import EntrainDiscovery
import XCTest

/// Reading avahi-browse's parsable output as `ctl --list` does: resolved IPv4 services with our
/// mark, both service types joined by name and address, names unescaped.
final class InstanceBrowserTests: XCTestCase {
    let osc = """
        +;veth0;IPv4;stage;_osc._udp;local
        =;veth0;IPv4;stage;_osc._udp;local;stage-osc.local;10.0.0.1;9000;"app=entrain"
        =;eth0;IPv4;stage;_osc._udp;local;stage-osc.local;10.0.0.1;9000;"app=entrain"
        =;veth0;IPv6;stage;_osc._udp;local;stage-osc.local;fe80::1;9000;"app=entrain"
        =;veth0;IPv4;front\\032of\\032house\\.1;_osc._udp;local;foh.local;10.0.0.2;8000;"app=entrain"
        =;veth0;IPv4;TouchOSC\\032Bridge;_osc._udp;local;tablet.local;10.0.0.9;12101;
        =;veth0;IPv4;other;_osc._udp;local;other.local;10.0.0.8;7000;"app=else"
        """
    let query = """
        =;veth0;IPv4;stage;_oscjson._tcp;local;stage-osc.local;10.0.0.1;9001;"app=entrain"
        =;veth0;IPv4;query-only;_oscjson._tcp;local;q.local;10.0.0.3;8080;"app=entrain"
        """

    func testResolvedMarkedIPv4ServicesJoinedByNameAndAddress() {
        let found = InstanceBrowser.instances(osc: osc, query: query)
        XCTAssertEqual(found.map(\.name), ["front of house.1", "query-only", "stage"], "sorted, other apps and IPv6 left out")
        let stage = found.first { $0.name == "stage" }
        XCTAssertEqual(stage?.address, "10.0.0.1")
        XCTAssertEqual(stage?.host, "stage-osc.local")
        XCTAssertEqual(stage?.oscPort, 9000, "seen on two interfaces, listed once")
        XCTAssertEqual(stage?.queryPort, 9001)
        XCTAssertNil(found.first { $0.name == "query-only" }?.oscPort)
        XCTAssertNil(found.first { $0.name == "front of house.1" }?.queryPort)
    }

    func testUnescapesDNSStyleEscapes() {
        XCTAssertEqual(InstanceBrowser.unescape("a\\032b"), "a b")
        XCTAssertEqual(InstanceBrowser.unescape("a\\.b\\\\c"), "a.b\\c")
        XCTAssertEqual(InstanceBrowser.unescape("caf\\195\\169"), "café", "bytes of UTF-8")
        XCTAssertEqual(InstanceBrowser.unescape("end\\"), "end\\", "a lone backslash at the end kept")
    }
}
