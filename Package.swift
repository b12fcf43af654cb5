// swift-tools-version:6.1
import Foundation
import PackageDescription

// Real-time code must be inlinable across modules: @_noLocks rejects calls whose body it cannot see.
let realtimeFlags: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"]),  // no swift_beginAccess on the process thread
    // @_noLocks proofs need whole-module builds to see across files: on in release only.
    .define("REALTIME_CHECKED", .when(configuration: .release)),
]

// Release builds carry the Swift runtime and Foundation inside: the binary runs without a Swift
// toolchain (docs/install.md). Set on every target at the end of this file. `make test` builds
// the suite and the binary it drives in one optimised build (ENTRAIN_TEST_BUILD=1, its own
// scratch folder) with the runtime shared instead: XCTest links the toolchain's Foundation, and
// a second static copy beside it cannot link.
let testBuild = ProcessInfo.processInfo.environment["ENTRAIN_TEST_BUILD"] != nil
let staticRuntime = !testBuild
let staticRuntimeCondition = BuildSettingCondition.when(platforms: [.linux], configuration: .release)
let staticRuntimeFlags = staticRuntime ? ["-static-stdlib"] : []
let staticRuntimeLink = LinkerSetting.unsafeFlags(staticRuntimeFlags, staticRuntimeCondition)

let package = Package(
    name: "entrain",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "entrain", targets: ["entrain"]),
        // For the libFuzzer package in Fuzz/ (built only by scripts/libfuzz.sh).
        .library(name: "EntrainFuzzing", targets: ["EntrainFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The discovery server's HTTP/1.1 and WebSocket are our own (Sources/EntrainDiscovery/HTTP,
        // WebSocket, Server): swift-nio and Hummingbird were most of the build's time for one small server.
    ],
    targets: [
        // System libraries, with C shims for what Swift cannot call (variadics, FPU flags).
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        .systemLibrary(name: "CLilv", pkgConfig: "lilv-0", providers: [.apt(["liblilv-dev"])]),
        // FLAC, Ogg Vorbis and Opus renders, and the files `render --mix` reads.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Ableton Link (Debian's header-only ableton-link-dev, with asio) behind a small C API.
        .target(name: "CLink", cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
                linkerSettings: [.linkedLibrary("pthread")]),

        // Reading the user's files safely: one size cap and one JSON depth for every document,
        // errors in words, stale temporary files swept. No dependencies.
        .target(name: "EntrainFiles"),
        // The control side's threads of their own (OSC, DMX, MIDI in, the pumps, LV2 workers):
        // one named, stoppable loop. No dependencies.
        .target(name: "EntrainService"),
        // Pure DSP building blocks: value types, no I/O, no allocation after init.
        .target(name: "EntrainDSP", swiftSettings: realtimeFlags),
        // Parameter table (address-space descriptors), commands, the command ring and the plugin contract.
        .target(name: "EntrainCore", dependencies: ["EntrainDSP", "EntrainAddressSpace"], swiftSettings: realtimeFlags),
        // The engine: plugins (one folder each under Plugins/), master section, clock, offline
        // renderer, WAV files. Plugins share the engine's module so the real-time checker sees
        // every call in unoptimised builds too.
        .target(name: "EntrainEngine",
                dependencies: ["EntrainDSP", "EntrainCore", "EntrainAddressSpace", "EntrainFiles", "CFFTW", "CSndFile"],
                swiftSettings: realtimeFlags),
        // The JACK client: ports, callbacks, metadata, latency, and Ableton Link's session.
        .target(name: "EntrainJACK",
                dependencies: ["CJack", "CLink", "EntrainEngine", .product(name: "Logging", package: "swift-log")],
                swiftSettings: realtimeFlags),
        // The one address space: descriptors, values, the rules that read them, and the family
        // contract every surface (OSC, --set, feedback, schema, presets, sessions) loops over.
        // It sits below the engine: the engine's parameters are its descriptors.
        .target(name: "EntrainAddressSpace"),
        // Heart-rate variability: RR intervals in, artifacts out, the standard measures, spectral
        // coherence, and the EBS metrics, phase space and modes. Pure Swift, Foundation only.
        .target(name: "EntrainHRV", dependencies: ["EntrainFiles"]),
        // The control plane: OSC (liblo codec, our sockets), routing, feedback, schema, and the
        // engine's and the ambient engine's address families.
        .target(name: "EntrainControl",
                dependencies: ["CLo", "EntrainDSP", "EntrainCore", "EntrainEngine", "EntrainAmbient", "Kessho", "EntrainAddressSpace", "EntrainFiles", "EntrainHRV",
                               "EntrainLV2", "EntrainService",
                               .product(name: "Logging", package: "swift-log")]),
        // Discoverable control: the OSCQuery server (our own HTTP/1.1 + WebSocket on plain
        // sockets, one thread), the browser control page served from the binary, controller
        // layouts and mDNS advertising, all generated from the address space.
        .target(name: "EntrainDiscovery",
                dependencies: ["EntrainControl", "EntrainAddressSpace", "EntrainService", "CZlib",
                               .product(name: "Logging", package: "swift-log")],
                resources: [.embedInCode("ControlPage/index.html"), .embedInCode("ControlPage/app.js"),
                            .embedInCode("ControlPage/style.css")]),
        // Hosted LV2 plugins (through lilv): discovery, instances made ready off the process
        // thread, the insert chains on the output buses, and their /fx family of addresses.
        .target(name: "EntrainLV2",
                dependencies: ["CLilv", "EntrainCore", "EntrainEngine", "EntrainAddressSpace", "EntrainFiles", "EntrainService"]),
        // The commit `entrain --version` names: make stamps an untracked header, a plain build has none.
        .target(name: "EntrainBuildInfo"),
        // The executable: argument parsing and wiring only.
        .executableTarget(
            name: "entrain",
            dependencies: ["EntrainDSP", "EntrainEngine", "EntrainJACK", "EntrainCore", "EntrainControl", "BeatLab", "EntrainAmbient", "Kessho",
                           "EntrainAddressSpace", "EntrainFiles", "EntrainHRV", "EntrainDiscovery", "EntrainLV2", "EntrainBuildInfo", "EntrainService",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: realtimeFlags,
            // Bind every symbol at start-up so the first process cycle never enters the dynamic linker.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-znow"]), staticRuntimeLink]),

        // Beat-analysis evaluation: a synthesized corpus with exact ground truth, the standard
        // metrics (mir_eval conventions) and a runner for aubio's command-line tools.
        .target(name: "BeatLab", dependencies: ["EntrainCore", "EntrainEngine", "EntrainFiles"]),

        // Kessho port, deterministic part: parameter state, presets, seeded RNG, harmony. No audio.
        .target(name: "Kessho", dependencies: ["EntrainDSP", "EntrainFiles"]),
        // The ambient engine's control side: the Kessho state mapped to sound settings, and the
        // conductor that schedules the phrase grid's chords onto engine frames.
        .target(name: "EntrainAmbient", dependencies: ["Kessho", "EntrainEngine", "EntrainDSP"]),

        // Every file reader as the fuzzers drive it, and the seeded mutator: shared by the
        // mutation test and the libFuzzer target.
        .target(name: "EntrainFuzzing", dependencies: ["EntrainControl", "Kessho"]),
        .target(name: "TestSupport", dependencies: ["CJack", "CFFTW", "EntrainEngine", "EntrainControl", "EntrainAddressSpace"],
                path: "Tests/TestSupport"),
        .testTarget(name: "HRVTests", dependencies: ["EntrainHRV", "TestSupport"]),
        .testTarget(name: "EntrainDSPTests", dependencies: ["EntrainDSP", "TestSupport"]),
        .testTarget(name: "EntrainEngineTests", dependencies: ["EntrainEngine", "EntrainCore", "EntrainAddressSpace", "TestSupport"]),
        .testTarget(name: "EntrainControlTests", dependencies: ["EntrainControl", "EntrainFuzzing", "EntrainAddressSpace", "EntrainEngine", "EntrainCore", "EntrainAmbient", "Kessho",
                                                              "EntrainFiles", "EntrainLV2", "EntrainService", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "LV2Tests", dependencies: ["EntrainLV2", "EntrainEngine", "EntrainCore", "EntrainAddressSpace", "TestSupport"]),
        .testTarget(name: "BeatLabTests", dependencies: ["BeatLab", "TestSupport"]),
        .testTarget(name: "DiscoveryTests", dependencies: ["EntrainDiscovery", "EntrainControl", "EntrainAddressSpace", "TestSupport",
                                                          .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "KesshoTests", dependencies: ["Kessho", "EntrainFiles", "TestSupport"]),
        .testTarget(name: "AmbientTests", dependencies: ["EntrainAmbient", "Kessho", "EntrainEngine", "EntrainDSP", "EntrainCore", "TestSupport"]),
        .testTarget(name: "BeatAnalysisTests", dependencies: ["BeatLab", "EntrainEngine", "EntrainCore", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["TestSupport", "BeatLab", "EntrainEngine", "EntrainCore", "EntrainJACK", "EntrainControl", "CJack", "EntrainHRV",
                                                           "EntrainAmbient", "Kessho", "EntrainDSP",
                                                           .product(name: "Logging", package: "swift-log")]),
    ],
    swiftLanguageModes: [.v5]
)

// Release builds on Linux compile against the static modules (so our objects name every static
// library they need, ICU among them) and link the Swift runtime and Foundation into the binary.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(staticRuntimeFlags, staticRuntimeCondition)]
}

// The test build is optimised too: the suite renders and analyses minutes of audio, which the
// unoptimised code takes many times longer to compute (make test's budget is 15 minutes).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}

// make test's optimised build: our modules open to @testable import (the dependencies need not be).
if testBuild {
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"])]
    }
    // The test targets themselves unoptimised: they drive the optimised modules (TestSupport, which
    // analyses the recordings, stays optimised), so the tests run as fast (the computing shard 259 s
    // against 261 s), and they compile in 36 s instead of 108 s.
    for target in package.targets where target.type == .test {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
    }
}
