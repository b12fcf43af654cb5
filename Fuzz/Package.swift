// swift-tools-version:6.1
import PackageDescription

// libFuzzer over entrain's file readers. Not part of the main build: scripts/libfuzz.sh builds
// it with `-sanitize=fuzzer` (coverage-guided) and runs each reader.
let package = Package(
    name: "entrain-fuzz",
    dependencies: [.package(name: "entrain", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        .executableTarget(name: "entrain-libfuzzer",
                          dependencies: ["CFuzzerDriver", .product(name: "EntrainFuzzing", package: "entrain")],
                          path: "Sources/entrain-libfuzzer"),
    ],
    swiftLanguageModes: [.v5]
)
