import EntrainEngine
import EntrainLV2
import TestSupport
import XCTest

/// The engine's side of a slot, with a stand-in plugin written here (a C-callable run function
/// whose handle is a record of what each run saw), so the host's duties are checked exactly.
final class InsertSlotTests: XCTestCase {
    /// What the stand-in's run function saw.
    struct Seen {
        var atom: UnsafeMutableRawPointer
        var runs = 0
        var shortOffers = 0
    }

    /// Before every run the host offers each atom output's whole buffer again (a plugin writing
    /// its notifications shrinks the header to what it wrote; x42-eq refused to notify after its
    /// first run before this was done).
    func testEveryRunIsOfferedTheWholeAtomOutputBuffer() throws {
        let host = try TestEngine.host()
        let capacity: UInt32 = 8184, chunk: UInt32 = 77
        let atom = UnsafeMutableRawPointer.allocate(byteCount: 8192, alignment: 8)
        let seen = UnsafeMutablePointer<Seen>.allocate(capacity: 1)
        seen.initialize(to: Seen(atom: atom))
        let buffers = UnsafeMutablePointer<Float>.allocate(capacity: InsertSlot.bufferFrames)
        buffers.initialize(repeating: 0, count: InsertSlot.bufferFrames)
        let controls = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        let list = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: 1)
        list.initialize(to: atom)
        let slot = UnsafeMutablePointer<InsertSlot>.allocate(capacity: 1)
        slot.initialize(to: InsertSlot(first: UnsafeMutableRawPointer(seen), second: nil, run: { handle, _ in
            let seen = handle!.assumingMemoryBound(to: Seen.self)
            seen.pointee.runs += 1
            let size = seen.pointee.atom.load(as: UInt32.self), type = seen.pointee.atom.load(fromByteOffset: 4, as: UInt32.self)
            if size != 8184 || type != 77 { seen.pointee.shortOffers += 1 }
            seen.pointee.atom.storeBytes(of: UInt32(8), as: UInt32.self)  // an empty sequence written back
        }, buffers: buffers, controls: controls, fadeFrames: 1))
        slot.pointee.offerAtomOutputs(list, count: 1, capacity: capacity, chunkType: chunk)
        let chain = UnsafeMutablePointer<InsertChain>.allocate(capacity: 1)
        chain.initialize(to: InsertChain([slot]))
        try host.send(.insertChain(.entrainment, chain))
        _ = TestEngine.render(host, seconds: 0.1, blockSize: 256)
        XCTAssertGreaterThan(seen.pointee.runs, 10)
        XCTAssertEqual(seen.pointee.shortOffers, 0)
        try host.send(.insertChain(.entrainment, nil))
        _ = TestEngine.render(host, seconds: 0.01, blockSize: 256)
        XCTAssertEqual(host.nextRetiredInsertChain(), chain, "the engine hands the chain back once it lets go")
        chain.pointee.deallocate(); chain.deallocate()
        slot.deallocate(); list.deallocate(); controls.deallocate(); buffers.deallocate(); seen.deallocate(); atom.deallocate()
    }
}

/// Plugins that set the FPU's flush-to-zero flags while they start must not leave them set on
/// the control thread (a test of number printing failed after the LV2 tests before this).
final class FloatingPointStateTests: XCTestCase {
    func testLoadingPluginsLeavesDenormalsAlone() throws {
        let host = try TestEngine.host()
        let chains = InsertChains(host: host)
        for uri in ["http://plugin.org.uk/swh-plugins/amp", "http://gareus.org/oss/lv2/fil4#stereo",
                    "http://lsp-plug.in/plugins/lv2/compressor_stereo", "urn:dragonfly:plate"] {
            try chains.add(uri, to: .entrainment)
        }
        let tiny = try XCTUnwrap(Double("5e-324"))
        XCTAssertGreaterThan(tiny * 1.5, 0, "denormals still work on this thread")
        XCTAssertEqual("\(tiny)", "5e-324")
    }
}
