import Foundation
import RiveSyncTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `Packages/ClientPackage/` depends only on the `RiveSyncClient` product, as an app would. Built with
/// the default transport it links libwebsockets and talks to the daemon; built with
/// `RIVESYNC_CLIENT_TRANSPORT=foundation` (what Apple hosts get) SwiftPM never looks for
/// libwebsockets and no libwebsockets target is planned, built or linked. A `libwebsockets.pc` that
/// `Requires:` a missing package is put first on `PKG_CONFIG_PATH` to see whether SwiftPM asks
/// for it (it warns when it does). All builds share one scratch directory under `.build/`, so
/// after the first only the client (and what differs) compiles again; each test holds a lock on
/// it while it builds (`swift test --parallel` runs the two at once, in two processes).
final class ClientPackageTests: ClientTestCase {
    private static let package = DaemonProcess.packageRoot + "/Tests/RiveSyncClientTests/Packages/ClientPackage"
    private static let scratch = DaemonProcess.packageRoot + "/.build/client-package"

    func testAPackageOnTheClientProductBuildsWithEitherTransport() async throws {
        try startDemoProcess()
        let probe = try Self.writeProbe()
        let lock = try Self.lockScratch()
        defer { close(lock) }

        let onLibWebSockets = try Self.build(environment: ["PKG_CONFIG_PATH": probe])
        XCTAssertTrue(
            onLibWebSockets.output.contains("libwebsockets"), "the probe shows SwiftPM asking for libwebsockets:\n\(onLibWebSockets.output)"
        )
        XCTAssertTrue(onLibWebSockets.modules.contains("RiveSyncTransport"))
        XCTAssertTrue(try Self.libraries().contains("libwebsockets"), "the default client links libwebsockets on Linux")
        let run = try Self.run(process.url)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output, "mood 7\n")

        let onFoundation = try Self.build(environment: ["PKG_CONFIG_PATH": probe, "RIVESYNC_CLIENT_TRANSPORT": "foundation"])
        XCTAssertFalse(onFoundation.output.contains("libwebsockets"), "SwiftPM looked for libwebsockets:\n\(onFoundation.output)")
        for target in ["CWebSockets", "RiveSyncTransport"] {
            XCTAssertFalse(onFoundation.planned.contains(target), "\(target) is in the build plan: \(onFoundation.planned)")
        }
        XCTAssertTrue(onFoundation.modules.contains("RiveSyncFoundationWebSocket"))
        let libraries = try Self.libraries()
        XCTAssertFalse(libraries.contains("libwebsockets"), libraries)
        XCTAssertTrue(libraries.contains("libFoundationNetworking"), libraries)
        // Debian's libcurl has no WebSocket support: the Foundation client fails, typed and at once.
        let refused = try Self.run(process.url)
        XCTAssertEqual(refused.status, 1, refused.output)
        XCTAssertTrue(refused.output.hasPrefix("error: cannot connect to the daemon: "), refused.output)
    }

    /// `Packages/AppPackage/` imports RiveRuntime and RiveSyncClient together (names qualified) and
    /// bridges them; RiveSync's manifest takes `Packages/RiveRuntimeStandIn/` for RiveRuntime, so the
    /// client's `RiveRuntimeInstance` adapter is compiled. Built on Foundation (as an Apple app
    /// would be) in the same scratch directory, so after the test above only the client and the
    /// stand-in compile. Only type-checked against RIVE-API.md's signatures: running it with the
    /// real RiveRuntime needs a Mac.
    func testAnAppImportingRiveRuntimeAndTheClientBuildsWithTheAdapter() throws {
        let tests = DaemonProcess.packageRoot + "/Tests/RiveSyncClientTests/Packages"
        let lock = try Self.lockScratch()
        defer { close(lock) }
        Self.forgetBuildPlan()
        let result = try Self.execute(
            "/usr/bin/env",
            [
                "swift", "build", "--package-path", tests + "/AppPackage", "--scratch-path", Self.scratch, "--product", "rive-app",
            ],
            environment: ["RIVESYNC_RIVE_RUNTIME_PATH": tests + "/RiveRuntimeStandIn", "RIVESYNC_CLIENT_TRANSPORT": "foundation"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("error:"), result.output)
    }

    private struct Build {
        var output: String
        /// Targets in the build plan (`description.json`).
        var planned: Set<String>
        /// Swift modules present in the scratch directory's `Modules/`.
        var modules: Set<String>
    }

    private static func build(environment: [String: String]) throws -> Build {
        let debug = scratch + "/debug"
        forgetBuildPlan()
        let result = try execute(
            "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", scratch, "--product", "client-check"],
            environment: environment)
        guard result.status == 0 else { throw BuildFailed(output: result.output) }
        let description = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: debug + "/description.json")))
        let planned = ((description as? [String: Any])?["targetDependencyMap"] as? [String: Any]).map { Set($0.keys) } ?? []
        let modules = try FileManager.default.contentsOfDirectory(atPath: debug + "/Modules").filter { $0.hasSuffix(".swiftmodule") }
        return Build(output: result.output, planned: planned, modules: Set(modules.map { String($0.dropLast(".swiftmodule".count)) }))
    }

    /// Makes SwiftPM plan the next build afresh: the scratch directory is shared by packages
    /// with different roots and manifests, and a plan left by another one would be reused.
    private static func forgetBuildPlan() {
        for file in ["debug.yaml", "debug/description.json"] { try? FileManager.default.removeItem(atPath: scratch + "/" + file) }
    }

    /// Waits for, then holds, the scratch directory's lock (`flock` on a file beside it) until the
    /// returned descriptor is closed: one test's `forgetBuildPlan` removed the plan another
    /// test's build had just written.
    private static func lockScratch() throws -> Int32 {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let descriptor = open(scratch + ".lock", O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { throw BuildFailed(output: "cannot open \(scratch).lock: errno \(errno)") }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw BuildFailed(output: "cannot lock \(scratch).lock: errno \(errno)")
        }
        return descriptor
    }

    private static func libraries() throws -> String {
        let result = try execute("/usr/bin/ldd", [scratch + "/debug/client-check"])
        XCTAssertEqual(result.status, 0, result.output)
        return result.output
    }

    private static func run(_ url: String) throws -> ChildProcess.Result {
        try execute(scratch + "/debug/client-check", [url])
    }

    private static func writeProbe() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-pc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pc = "Name: libwebsockets\nDescription: probe\nVersion: 4.1.6\nRequires: rivesync-missing-probe\nLibs: -lwebsockets\n"
        try Data(pc.utf8).write(to: directory.appendingPathComponent("libwebsockets.pc"))
        return directory.path
    }

    private struct BuildFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "swift build failed:\n\(output)" }
    }

    /// Runs a program to its end (stdout and stderr together); fails after 15 minutes.
    private static func execute(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        try ChildProcess.run(path, arguments, environment: environment, output: .merged, seconds: 900)
    }
}
