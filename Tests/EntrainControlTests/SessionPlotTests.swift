import EntrainControl
import Foundation
import TestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class SessionPlotTests: XCTestCase {
    /// The drawing is well-formed SVG, and the beat line says what the program plays: read a
    /// point off the polyline and map it back through the log axis.
    func testThePlotShowsTheProgram() throws {
        let session = try SessionDecoder.decode("""
        { "name": "Dip", "stages": [ { "name": "Alpha", "duration": 60, "voices": [ { "beat": 10 } ] },
                                     { "name": "Down", "duration": 120, "transition": "exponential", "voices": [ { "beat": 2.5 } ] } ] }
        """, file: "dip.json").session
        let svg = SessionPlot.svg(SessionProgram(session, sampleRate: 1000), samples: 180)
        final class Collector: NSObject, XMLParserDelegate {
            var polylines: [String: String] = [:], texts: [String] = [], current = ""
            func parser(_ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
                if name == "polyline", let id = attributes["id"] { polylines[id] = attributes["points"] }
                current = ""
            }
            func parser(_ p: XMLParser, foundCharacters s: String) { current += s }
            func parser(_ p: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { if name == "text" { texts.append(current) } }
        }
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed")
        for label in ["delta", "theta", "alpha", "beta", "gamma", "Alpha", "Down", "Dip"] { XCTAssertTrue(collector.texts.contains(label), label) }
        let points = try XCTUnwrap(collector.polylines["beat-1"]).split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
        XCTAssertEqual(points.count, 181)
        // Sample 120 is 120 s in: half-way down the exponential slide, √(10·2.5) = 5 Hz.
        let y = points[120][1]
        let hz = 0.5 * pow(200, 1 - (y - 40) / 220)
        XCTAssertEqual(hz, 5, accuracy: 0.05)
    }
}
