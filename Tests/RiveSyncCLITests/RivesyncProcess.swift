import Foundation
import RiveSyncTestSupport
import XCTest

/// Runs the built `rivesync` binary, as a user would, and captures what it prints.
enum RivesyncProcess {
    typealias Result = ChildProcess.Result

    /// The build products directory: the one holding this test bundle (and `rivesync`).
    static let productsDirectory: URL = {
        let bundle = Bundle(for: Marker.self).bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }()

    private final class Marker {}

    /// The built binary; `Missing` when it is not there.
    static func binary() throws -> String {
        let binary = productsDirectory.appendingPathComponent("rivesync").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Missing(description: "rivesync is not built next to the tests at \(binary)")
        }
        return binary
    }

    /// Runs `rivesync arguments…` to completion, with `environment` added to this process's
    /// (RIVESYNC_* and SSL_CERT_FILE removed unless given) and `stdin` as its standard input.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Result {
        try start(arguments, environment: environment, stdin: stdin).finish(within: 120)
    }

    /// Starts `rivesync arguments…` (as `run` does) for a test that reads its output while it
    /// runs (`watch`).
    static func start(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            try binary(), arguments, environment: environment, keeping: { !$0.hasPrefix("RIVESYNC_") && $0 != "SSL_CERT_FILE" },
            input: .text(stdin ?? ""))
    }

    /// A file the tests need that is not there (the built binary, a fixture): the test fails.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// `../shared/fixtures/riv/NAME.riv`; throws `Missing` if it is not there.
    static func fixture(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/riv/\(name).riv").path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(description: "fixture \(path) is missing") }
        return path
    }

    /// Writes `contents` to a new temporary file and returns its path.
    static func temporaryFile(_ name: String, _ contents: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }
}
