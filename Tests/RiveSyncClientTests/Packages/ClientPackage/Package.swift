// swift-tools-version:6.0
// A package that depends only on the RiveSyncClient product, as an app would; built by
// ClientPackageTests, with RIVESYNC_CLIENT_TRANSPORT=foundation once, to show which targets
// the client pulls in. It depends on the repository by path, so nothing is fetched.
import Foundation
import PackageDescription

let repository = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "ClientPackage",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: repository.path)],
    targets: [
        .executableTarget(
            name: "client-check", dependencies: [.product(name: "RiveSyncClient", package: repository.lastPathComponent)])
    ],
    swiftLanguageModes: [.v6]
)
