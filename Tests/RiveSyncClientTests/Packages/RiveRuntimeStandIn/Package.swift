// swift-tools-version:6.0
// A compile-only stand-in for Rive's RiveRuntime (a binary framework for Apple platforms only):
// the public signatures of RIVE-API.md §1 that RiveSync's adapter and an app use, with bodies
// that stop the program. AppPackageTests builds RiveSync against it to type-check the
// RiveRuntime adapter and the name qualification on Linux; nothing runs.
import PackageDescription

let package = Package(
    name: "RiveRuntime",
    products: [.library(name: "RiveRuntime", targets: ["RiveRuntime"])],
    targets: [.target(name: "RiveRuntime")],
    swiftLanguageModes: [.v6]
)
