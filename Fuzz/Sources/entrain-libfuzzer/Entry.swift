import CFuzzerDriver
import EntrainFuzzing
import Foundation

// libFuzzer calls the two functions below by their C names. Which reader is fuzzed comes from
// ENTRAIN_FUZZ_READER; ENTRAIN_FUZZ_READER=list prints each reader and its seed folders.

/// SwiftPM points an executable's `main` at `<module>_main`, so libFuzzer's own `main` is not
/// used: this starts its driver with the same arguments.
@_cdecl("entrain_libfuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc, vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in fuzzerTestOneInput(data, size) }
}

nonisolated(unsafe) private var reader: FileReader?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    let name = ProcessInfo.processInfo.environment["ENTRAIN_FUZZ_READER"] ?? ""
    if name == "list" {
        for reader in FileReaders.all {
            print(([reader.name] + reader.seedFolders.map { "\($0.folder):\($0.fileExtension)" }).joined(separator: " "))
        }
        exit(0)
    }
    guard let chosen = FileReaders.all.first(where: { $0.name == name }) else {
        fputs("entrain-libfuzzer: set ENTRAIN_FUZZ_READER to one of \(FileReaders.all.map(\.name).joined(separator: ", ")) (or list)\n", stderr)
        exit(2)
    }
    reader = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? reader?.read(bytes)  // an error is a right answer; a crash or a hang is what libFuzzer catches
    return 0
}
