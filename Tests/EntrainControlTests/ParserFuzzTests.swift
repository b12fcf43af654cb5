import EntrainControl
import EntrainFiles
import EntrainFuzzing
import Foundation
import Kessho
import TestSupport
import XCTest

/// Every file reader fed mutated copies of the shipped and fixture files, for a bounded time
/// (FUZZ_SECONDS in all, default 48; `make fuzz` gives it 15 minutes): none may crash or stall.
/// The mutations are seeded (FUZZ_SEED), so a run is repeatable; progress lines name the reader
/// and the iteration, so a crash can be replayed. Inputs that once misbehaved live in
/// Tests/Fixtures/fuzz and are replayed on every run.
final class ParserFuzzTests: XCTestCase {
    static let root = EntrainBinary.packageRoot
    /// Longest any one input may take before it counts as a stall.
    static let stallSeconds = 2.0

    func testEveryReaderSurvivesMutatedFiles() throws {
        let environment = ProcessInfo.processInfo.environment
        let total = environment["FUZZ_SECONDS"].flatMap(Double.init) ?? 48
        let seed = environment["FUZZ_SEED"].flatMap(UInt64.init) ?? 16
        let readers = FileReaders.all
        defer { try? FileManager.default.removeItem(at: FileReaders.playlistFolder) }
        for (index, reader) in readers.enumerated() {
            let seeds = FileReaders.seeds(of: reader, root: Self.root)
            XCTAssertFalse(seeds.isEmpty, "\(reader.name): no files to start from")
            let corpus = seeds.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
            guard !corpus.isEmpty else { continue }
            var mutator = Mutator(seed: seed &+ UInt64(index), corpus: corpus)
            let deadline = Date().addingTimeInterval(total / Double(readers.count))
            var iterations = 0, refused = 0
            while Date() < deadline {
                iterations += 1
                if iterations % 5000 == 0 { print("fuzz \(reader.name) seed \(seed &+ UInt64(index)): iteration \(iterations)") }
                let input = mutator.next()
                let start = Date()
                do { try reader.read(input) } catch { refused += 1 }
                let took = Date().timeIntervalSince(start)
                if took > Self.stallSeconds {
                    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(reader.name)-\(iterations).\(reader.fileExtension)")
                    try? Data(input).write(to: saved)
                    XCTFail("\(reader.name): an input took \(took) s (saved as \(saved.path))")
                }
            }
            print("fuzz \(reader.name): \(iterations) inputs, \(refused) refused with an error, none crashed")
        }
    }

    /// Inputs that once crashed or stalled a reader (named READER-what.EXT), replayed.
    func testTheRegressionCorpusReplays() throws {
        let folder = Self.root.appendingPathComponent("Tests/Fixtures/fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let readers = Dictionary(uniqueKeysWithValues: FileReaders.all.map { ($0.name, $0) })
        defer { try? FileManager.default.removeItem(at: FileReaders.playlistFolder) }
        var replayed = 0
        for name in names {
            guard let reader = readers[String(name.prefix { $0 != "-" && $0 != "." })],
                  let bytes = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            _ = try? reader.read([UInt8](bytes))
            replayed += 1
        }
        XCTAssertGreaterThan(replayed, 0)
    }
}

/// What the fuzzing found, each pinned with its own input.
final class FuzzFindingTests: XCTestCase {
    /// An element name that is not UTF-8 made Foundation's XML parser trap (a crash): now an
    /// error at the byte's line and column.
    func testAGnauralElementNameThatIsNotUTF8IsAnErrorNotACrash() throws {
        let url = ParserFuzzTests.root.appendingPathComponent("Tests/Fixtures/fuzz/gnaural-invalid-utf8-element.gnaural")
        XCTAssertThrowsError(try GnauralImporter.load(url)) { error in
            XCTAssertTrue("\(error)".contains("gnaural-invalid-utf8-element.gnaural:3:4"), "\(error)")
            XCTAssertTrue("\(error)".contains("not UTF-8"), "\(error)")
        }
    }

    /// Found by the fuzzer on a clean clone: Foundation's XML parser crashes the process on a
    /// processing instruction without data, on a DTD's notation and on `<?xml?>`. Both are errors now, with
    /// their positions, and the parser never sees them.
    func testGnauralConstructsThatCrashTheXMLParserAreErrors() throws {
        let folder = ParserFuzzTests.root.appendingPathComponent("Tests/Fixtures/fuzz")
        XCTAssertThrowsError(try GnauralImporter.load(folder.appendingPathComponent("gnaural-empty-processing-instruction.gnaural"))) { error in
            XCTAssertTrue("\(error)".contains("gnaural-empty-processing-instruction.gnaural:2:11"), "\(error)")
            XCTAssertTrue("\(error)".contains("processing instructions"), "\(error)")
        }
        XCTAssertThrowsError(try GnauralImporter.load(folder.appendingPathComponent("gnaural-notation.gnaural"))) { error in
            XCTAssertTrue("\(error)".contains("gnaural-notation.gnaural:2:1"), "\(error)")
            XCTAssertTrue("\(error)".contains("document type declarations"), "\(error)")
        }
        XCTAssertThrowsError(try GnauralImporter.load(folder.appendingPathComponent("gnaural-bare-declaration.gnaural"))) { error in
            XCTAssertTrue("\(error)".contains("gnaural-bare-declaration.gnaural:1:1"), "\(error)")
            XCTAssertTrue("\(error)".contains("XML declaration"), "\(error)")
        }
        // The ordinary declaration still reads.
        let fine = Data("<?xml version=\"1.0\"?>\n<schedule></schedule>\n".utf8)
        XCTAssertThrowsError(try GnauralImporter.convert(fine, file: "fine.gnaural")) { error in
            XCTAssertFalse("\(error)".contains("processing instructions"), "\(error)")
        }
    }
}

/// Inputs far beyond any real file: a clear error (or a load) in bounded time, never a crash or
/// a stall. The times are printed.
final class HugeInputTests: XCTestCase {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-huge-\(UUID().uuidString)")

    override func setUpWithError() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func timed(_ what: String, _ body: () throws -> Void) rethrows {
        let start = Date()
        defer { print("huge input, \(what): \(String(format: "%.2f", Date().timeIntervalSince(start))) s") }
        try body()
    }

    func testA100MBFileIsRefusedAsTooLarge() throws {
        for name in ["big.json", "big.sbg", "big.gnaural"] {
            let url = folder.appendingPathComponent(name)
            FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 100 * 1024 * 1024)
            try handle.close()
            try timed("100 MB \(name)") {
                XCTAssertThrowsError(try SessionFiles.load(url)) { XCTAssertTrue("\($0)".contains("too large"), "\($0)") }
            }
        }
    }

    func testA100000LevelNestingIsAnError() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try timed("100,000-deep session") { XCTAssertThrowsError(try SessionDecoder.decode(deep, file: "deep.json")) }
        try timed("100,000-deep preset") { XCTAssertThrowsError(try Presets.changes(deep, file: "deep.json")) }
        try timed("100,000-deep AHAP") { XCTAssertThrowsError(try AHAPDecoder.decode(deep, file: "deep.ahap")) }
        try timed("100,000-deep Kessho preset") { XCTAssertThrowsError(try KesshoPresetLoader.load(Array(deep.utf8))) }
        let xml = "<?xml version=\"1.0\"?>" + String(repeating: "<a>", count: 100_000)
        try timed("100,000-deep Gnaural") { XCTAssertThrowsError(try GnauralImporter.convert(Data(xml.utf8), file: "deep.gnaural")) }
    }

    func testAMillionStagesOrSBGLinesAreRefusedWithTheLimitNamed() throws {
        func stages(_ n: Int) -> String {
            #"{"format": "entrain-session/1", "name": "many", "stages": ["#
                + Array(repeating: #"{"duration": 1}"#, count: n).joined(separator: ",") + "]}"
        }
        let json = folder.appendingPathComponent("many.json")
        try Data(stages(1_000_000).utf8).write(to: json)
        try timed("a million stages") {
            XCTAssertThrowsError(try SessionFiles.load(json)) { XCTAssertTrue("\($0)".contains("more than 1,000,000 values in one document"), "\($0)") }
        }
        // Under the value limit but over the stage limit: the stage that is one too many is named.
        try timed("100,001 stages") {
            XCTAssertThrowsError(try SessionDecoder.decode(stages(100_001), file: "many.json")) {
                XCTAssertTrue("\($0)".contains("1:1600060: error: more than 100,000 stages"), "\($0)")
            }
        }
        XCTAssertNoThrow(try SessionDecoder.decode(stages(86_400), file: "day.json"), "a day of one-second stages loads")
        let lines = (0..<1_000_000).map { String(format: "%02d:%02d:%02d alpha", $0 / 3600 % 24, $0 / 60 % 60, $0 % 60) }
        let sbg = folder.appendingPathComponent("many.sbg")
        try Data(("alpha: 200+10/50\n" + lines.joined(separator: "\n") + "\n").utf8).write(to: sbg)
        try timed("a million .sbg lines") {
            XCTAssertThrowsError(try SessionFiles.load(sbg)) { XCTAssertTrue("\($0)".contains(":250001:1: error: more than 250,000 lines (at most 200,000 of them time lines)"), "\($0)") }
        }
        let numbers = "{\"values\": [" + Array(repeating: "1", count: 1_000_001).joined(separator: ",") + "]}"
        try timed("a million numbers in a Kessho preset") {
            XCTAssertThrowsError(try KesshoPresetLoader.load(Array(numbers.utf8))) { XCTAssertTrue("\($0)".contains("values in one document"), "\($0)") }
        }
    }
}
