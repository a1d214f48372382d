// swift-tools-version:6.0
// An app that imports Rive's RiveRuntime and RiveSyncClient together and bridges them, as an
// iOS or macOS app would. AppPackageTests builds it on Linux with RiveSync's manifest pointed at
// a compile-only stand-in for RiveRuntime (RIVESYNC_RIVE_RUNTIME_PATH), so the RiveRuntime
// adapter and the qualified names type-check here. Nothing is fetched; nothing runs.
import Foundation
import PackageDescription

let tests = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let repository = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "AppPackage",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: repository.path), .package(path: tests.appendingPathComponent("RiveRuntimeStandIn").path)],
    targets: [
        .executableTarget(
            name: "rive-app",
            dependencies: [
                .product(name: "RiveSyncClient", package: repository.lastPathComponent),
                .product(name: "RiveRuntime", package: "RiveRuntimeStandIn"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
