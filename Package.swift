// swift-tools-version:6.0
import Foundation
import PackageDescription

// RiveSyncClient's default WebSocket transport: libwebsockets on Linux, Foundation's
// URLSessionWebSocketTask on Apple platforms (and anywhere else). With
// RIVESYNC_CLIENT_TRANSPORT=foundation the client takes Foundation on Linux too. Where the
// client is on Foundation, the package leaves out every target that needs libwebsockets (the
// daemon, its transport, their tests; see the end of this file), so SwiftPM never looks for
// the system library (ClientPackageTests in RiveSyncClientTests builds a package both ways).
#if os(Linux)
    let clientOnFoundation = Context.environment["RIVESYNC_CLIENT_TRANSPORT"] == "foundation"
#else
    let clientOnFoundation = true
#endif
let foundationPlatforms: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .visionOS, .watchOS, .windows, .android]
let clientTransports: [Target.Dependency] =
    clientOnFoundation
    ? ["RiveSyncFoundationWebSocket"]
    : [
        .target(name: "RiveSyncTransport", condition: .when(platforms: [.linux])),
        .target(name: "RiveSyncFoundationWebSocket", condition: .when(platforms: foundationPlatforms)),
    ]
let clientTransportSettings: [SwiftSetting] =
    clientOnFoundation ? [] : [.define("RIVESYNC_LIBWEBSOCKETS", .when(platforms: [.linux]))]

let package = Package(
    name: "RiveSync",
    // What the client side needs (the daemon and its transport are Linux-only).
    platforms: [.macOS(.v13), .macCatalyst(.v16), .iOS(.v16), .tvOS(.v16), .visionOS(.v1), .watchOS(.v9)],
    products: [
        .library(name: "RiveSyncModel", targets: ["RiveSyncModel"]),
        .library(name: "RiveSyncJSON", targets: ["RiveSyncJSON"]),
        .library(name: "RiveSyncProtocol", targets: ["RiveSyncProtocol"]),
        .library(name: "RiveSyncTransport", targets: ["RiveSyncTransport"]),
        .library(name: "RiveFile", targets: ["RiveFile"]),
        .executable(name: "rivesync", targets: ["rivesync"]),
        .library(name: "RiveSyncClient", targets: ["RiveSyncClient"]),
        .library(name: "RiveSyncWebSocket", targets: ["RiveSyncWebSocket"]),
        .library(name: "RiveSyncFoundationWebSocket", targets: ["RiveSyncFoundationWebSocket"]),
    ],
    targets: [
        // The release number shared by rivesyncd and rivesync (`--version`). No I/O.
        .target(name: "RiveSyncVersion", exclude: ["README.md"]),
        // What the command lines of rivesyncd and rivesync share: whole-file reads that say why a file cannot be
        // read (ENOENT, EACCES), nearest-name suggestions for a mistyped flag, command, key or variable.
        .target(name: "RiveSyncToolSupport", exclude: ["README.md"]),
        // Pure view-model core: schema, instances, paths, binding, advance, replica. No I/O.
        .target(name: "RiveSyncModel", dependencies: ["RiveSyncJSON"], exclude: ["README.md"]),
        // Strict JSON parser with limits, and a deterministic serializer. No I/O.
        .target(name: "RiveSyncJSON", exclude: ["README.md"]),
        .testTarget(name: "RiveSyncModelTests", dependencies: ["RiveSyncModel", "RiveFile", "RiveSyncJSON", "RiveSyncTestSupport"]),
        // Wire protocol v1: requests, replies, values, batches, error codes. No I/O.
        .target(name: "RiveSyncProtocol", dependencies: ["RiveSyncModel", "RiveSyncJSON"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncProtocolTests", dependencies: ["RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON"]),
        // The daemon's pure core: the change log's records and seam (JournalRecord, JournalCodec,
        // ChangeLog), the dispatcher's and the workers' logic as state machines (Connections,
        // WorkerCore). No Foundation, Dispatch, Glibc or transport (RiveSyncCoreTests checks).
        .target(name: "RiveSyncCore", dependencies: ["RiveSyncModel", "RiveSyncProtocol", "RiveSyncJSON"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncCoreTests", dependencies: ["RiveSyncCore", "RiveSyncModel", "RiveSyncProtocol", "RiveSyncJSON"]),
        // The daemon's shell around the core: queues, transport, journal files, configuration,
        // signals. Owns all I/O.
        .target(
            name: "RiveSyncServer",
            dependencies: [
                "RiveSyncCore", "RiveSyncModel", "RiveSyncProtocol", "RiveSyncJSON", "RiveSyncTransport", "RiveFile", "CCrypto",
                "RiveSyncVersion", "RiveSyncCluster", "RiveSyncRedis", "RiveSyncToolSupport",
            ],
            exclude: ["README.md"],
            // Web/ links the pages (web/) and the JavaScript client (clients/js/) served by --demo or
            // the inspector section.
            resources: [
                .embedInCode("demo.schema.json"), .embedInCode("Web/rivesync.js"), .embedInCode("Web/replica.js"),
                .embedInCode("Web/rive-adapter.js"), .embedInCode("Web/index.html"), .embedInCode("Web/inspector.js"),
                .embedInCode("Web/inspector-editors.js"), .embedInCode("Web/inspector-history.js"), .embedInCode("Web/inspector.css"),
                .embedInCode("Web/preview.html"),
                .embedInCode("Web/preview.js"), .embedInCode("Web/preview.css"),
            ]),
        // The daemon; also the rivesync command line when started under that name (MultiCall.swift).
        .executableTarget(name: "rivesyncd", dependencies: ["RiveSyncServer", "RiveSyncVersion", "RiveSyncCLI"], exclude: ["README.md"]),
        .testTarget(
            name: "RiveSyncServerTests",
            dependencies: [
                "rivesyncd", "RiveSyncServer", "RiveSyncTransport", "RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON",
                "RiveSyncTestSupport", "RiveSyncRedis", "StateMachineTraceSupport", "RiveSyncInProcess", "RiveSyncCore",
                "RiveSyncCluster", "RiveSyncVersion",
            ],
            exclude: ["python", "journal-v1", "journal-v4"]),
        // Test-only: the whole daemon in the test process on a manual clock (InProcessDaemon), and
        // the client's transport onto it, for the tests whose behaviour is logic, not sockets.
        // It reaches the daemon through `package` members (no `@testable`), so `swift build -c release` builds it.
        .target(
            name: "RiveSyncInProcess",
            dependencies: ["RiveSyncServer", "RiveSyncTransport", "RiveSyncCore", "RiveSyncProtocol", "RiveSyncJSON", "RiveSyncWebSocket"],
            path: "Tests/RiveSyncInProcess"),
        // Test-only: the tests' one process runner (and a real rivesyncd on it), polling helper and raw
        // WebSocket client.
        .target(name: "RiveSyncTestSupport", dependencies: ["CTestProcess"], path: "Tests/RiveSyncTestSupport"),
        // The test process ignores SIGPIPE from its start (a constructor), as the daemon does.
        .target(name: "CTestProcess", path: "Tests/CTestProcess"),
        // Benchmark (not a test): apply + advance throughput of the core.
        .executableTarget(name: "bench-model", dependencies: ["RiveSyncModel", "RiveFile"], path: "bench/model"),
        // libwebsockets 4.1.6 (Debian) behind a header-only shim.
        .systemLibrary(
            name: "CWebSockets", pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]),
        // OpenSSL's libcrypto (Debian) behind a header-only shim: SHA-256 for the daemon.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // WebSocket/HTTP transport: lws context, service thread, sessions by id. No JSON, no Rive.
        .target(name: "RiveSyncTransport", dependencies: ["CWebSockets"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncTransportTests", dependencies: ["RiveSyncTransport", "RiveSyncTestSupport"]),
        // Pure-Swift .riv reader: data-binding metadata into a FileSchema. No I/O.
        .target(name: "RiveFile", dependencies: ["RiveSyncModel"], exclude: ["README.md"]),
        .testTarget(name: "RiveFileTests", dependencies: ["RiveFile", "RiveSyncModel", "RiveSyncJSON"]),
        // Rive's golden state machine traces (../shared/fixtures/sm-traces) replayed in-process.
        .testTarget(
            name: "StateMachineTraceTests", dependencies: ["RiveFile", "RiveSyncModel", "RiveSyncJSON", "StateMachineTraceSupport"]),
        // Test-only: the one reader of the golden state machine traces (in-process and daemon trace tests).
        .target(name: "StateMachineTraceSupport", dependencies: ["RiveSyncJSON"], path: "Tests/StateMachineTraceSupport"),
        // The rivesync command line: a small subcommand parser and the subcommands.
        .target(
            name: "RiveSyncCLI",
            dependencies: [
                "RiveFile", "RiveSyncModel", "RiveSyncJSON", "RiveSyncClient", "RiveSyncWebSocket", "RiveSyncVersion",
                "RiveSyncToolSupport",
            ],
            exclude: ["README.md"]),
        .executableTarget(name: "rivesync", dependencies: ["RiveSyncCLI"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncCLITests", dependencies: ["rivesync", "rivesyncd", "RiveSyncTestSupport", "RiveFile", "RiveSyncModel"]),
        // Headless client: Rive's data-binding API over the wire, with a local replica per target.
        .target(
            name: "RiveSyncClient",
            dependencies: ["RiveSyncWebSocket", "RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON"] + clientTransports,
            exclude: ["README.md"], swiftSettings: clientTransportSettings),
        .testTarget(
            name: "RiveSyncClientTests",
            dependencies: [
                "RiveSyncClient", "RiveSyncFoundationWebSocket", "rivesyncd", "RiveSyncTestSupport",
                "RiveSyncInProcess", "RiveSyncWebSocket", "RiveSyncProtocol", "RiveSyncModel",
            ],
            exclude: ["Packages"]),
        // Rive's documentation snippets, unchanged, compiled and run against the daemon.
        .testTarget(name: "RiveDocSnippetTests", dependencies: ["RiveSyncClient", "rivesyncd", "RiveSyncTestSupport"]),
        // The client's transport seam: WebSocketConnection and WebSocketTransport. No I/O.
        .target(name: "RiveSyncWebSocket", exclude: ["README.md"]),
        // The seam on Foundation's URLSessionWebSocketTask: the default on Apple platforms.
        .target(name: "RiveSyncFoundationWebSocket", dependencies: ["RiveSyncWebSocket"], exclude: ["README.md"]),
        .testTarget(
            name: "RiveSyncFoundationWebSocketTests",
            dependencies: ["RiveSyncFoundationWebSocket", "RiveSyncWebSocket", "RiveSyncTestSupport"]),
        // Benchmark (not a test): .riv load time against byte-scan baselines.
        .executableTarget(name: "bench-riv-load", dependencies: ["RiveFile"], path: "bench/riv-load"),
        // Benchmark (not a test): WebSocket load generator for bench/run.py (rivesyncd vs peers).
        .target(name: "BenchLoadKit", path: "bench/load-kit"),
        // glibc's epoll and eventfd headers (not in the Swift Glibc module), for bench-load's raw engine.
        .systemLibrary(name: "CEpoll", path: "bench/load-epoll"),
        .executableTarget(name: "bench-load", dependencies: ["BenchLoadKit", "CEpoll", "RiveSyncTransport"], path: "bench/load"),
        // Benchmark (not a test): the rooms workload's floor, a minimal C epoll server speaking the
        // rooms subset of the protocol (bench/rooms-floor/floor.h); SHA-1 of the upgrade from libcrypto.
        .executableTarget(
            name: "bench-rooms-floor", dependencies: ["CCrypto"], path: "bench/rooms-floor",
            linkerSettings: [.linkedLibrary("crypto")]),
        // BenchHarnessTests run bench/run.py on the built bench-load, bench-rooms-floor and rivesyncd.
        .testTarget(
            name: "BenchLoadTests", dependencies: ["BenchLoadKit", "bench-load", "bench-rooms-floor", "rivesyncd", "RiveSyncTestSupport"]),
        // hiredis 0.14 (Debian) behind a header-only shim: the Redis protocol, for the cluster.
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
        // Redis through hiredis: connections, argv commands, typed replies, stream reader thread.
        .target(name: "RiveSyncRedis", dependencies: ["CHiredis"], exclude: ["README.md"]),
        .testTarget(name: "RiveSyncRedisTests", dependencies: ["RiveSyncRedis", "RiveSyncTestSupport"]),
        // The cluster's change log on a Redis stream (protocol/CLUSTER.md): fencing, leases, numbers.
        .target(
            name: "RiveSyncCluster",
            dependencies: ["RiveSyncCore", "RiveSyncModel", "RiveSyncRedis", "RiveSyncJSON", "RiveSyncClusterCore"],
            exclude: ["README.md"]),
        // The cluster's pure core: leases, fencing tokens, the append window, joins, freshness,
        // trims and the WAIT timeout as events -> actions with the clock passed in. No I/O.
        .target(name: "RiveSyncClusterCore", exclude: ["README.md"]),
        .testTarget(name: "RiveSyncClusterCoreTests", dependencies: ["RiveSyncClusterCore"]),
    ],
    swiftLanguageModes: [.v6]
)

// Without libwebsockets (Apple hosts, RIVESYNC_CLIENT_TRANSPORT=foundation): drop the daemon's
// system libraries and everything that depends on them, with the products made of them.
if clientOnFoundation {
    let systemOnly: Set<String> = ["CWebSockets", "CEpoll", "CCrypto", "CHiredis"]
    var dropped = systemOnly
    func names(_ dependency: Target.Dependency) -> String? {
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): name
        default: nil
        }
    }
    var grew = true
    while grew {
        let more = package.targets.filter {
            !dropped.contains($0.name) && $0.dependencies.contains { names($0).map(dropped.contains) ?? false }
        }
        dropped.formUnion(more.map(\.name))
        grew = !more.isEmpty
    }
    package.targets.removeAll { dropped.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return targets.contains(where: dropped.contains)
    }
}

// Rive's RiveRuntime for the client's RiveRuntimeInstance (Sources/RiveSyncClient/Bridge):
// RIVESYNC_RIVE_RUNTIME=1 adds rive-ios (fetched; Apple platforms), RIVESYNC_RIVE_RUNTIME_PATH
// a local package instead (AppPackageTests points it at a compile-only stand-in).
let rivePath = Context.environment["RIVESYNC_RIVE_RUNTIME_PATH"]
if rivePath != nil || Context.environment["RIVESYNC_RIVE_RUNTIME"] == "1" {
    let client = package.targets.first { $0.name == "RiveSyncClient" }!
    // The define: only with the dependency declared (a RiveRuntime module left in a build
    // directory by another build must not switch the adapter on).
    if let rivePath {
        package.dependencies.append(.package(path: rivePath))
        client.dependencies.append(.product(name: "RiveRuntime", package: URL(fileURLWithPath: rivePath).lastPathComponent))
        client.swiftSettings = (client.swiftSettings ?? []) + [.define("RIVESYNC_RIVE_RUNTIME")]
    } else {
        let apple: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .visionOS]
        package.dependencies.append(.package(url: "https://github.com/rive-app/rive-ios", from: "6.24.0"))
        client.dependencies.append(.product(name: "RiveRuntime", package: "rive-ios", condition: .when(platforms: apple)))
        client.swiftSettings = (client.swiftSettings ?? []) + [.define("RIVESYNC_RIVE_RUNTIME", .when(platforms: apple))]
    }
}

// libFuzzer targets for the .riv reader and the protocol message decoder, declared only for
// .ci/fuzz-riv.sh and .ci/fuzz-messages.sh (RIVESYNC_FUZZ=1): they have no main of their own (the
// fuzzer runtime supplies it), so a normal build could not link them.
if Context.environment["RIVESYNC_FUZZ"] == "1" {
    package.products.append(.executable(name: "FuzzRivReader", targets: ["FuzzRivReader"]))
    package.targets.append(.executableTarget(name: "FuzzRivReader", dependencies: ["RiveFile"], exclude: ["README.md"]))
    package.products.append(.executable(name: "FuzzMessageDecoder", targets: ["FuzzMessageDecoder"]))
    package.targets.append(
        .executableTarget(
            name: "FuzzMessageDecoder", dependencies: ["RiveSyncProtocol", "RiveSyncModel", "RiveSyncJSON"], exclude: ["README.md"]))
}
