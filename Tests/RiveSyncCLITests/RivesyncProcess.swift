import Foundation
import XCTest

/// Runs the built `rivesync` binary, as a user would, and captures what it prints.
enum RivesyncProcess {
    struct Result: Equatable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The build products directory: the one holding this test bundle (and `rivesync`).
    static let productsDirectory: URL = {
        let bundle = Bundle(for: Marker.self).bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }()

    private final class Marker {}

    /// Runs `rivesync arguments…` to completion, with `environment` added to this process's
    /// (RIVESYNC_* and SSL_CERT_FILE removed unless given) and `stdin` as its standard input.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Result {
        let binary = productsDirectory.appendingPathComponent("rivesync")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Missing(description: "rivesync is not built next to the tests at \(binary.path)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("RIVESYNC_") && $0.key != "SSL_CERT_FILE"
        }
        variables.merge(environment) { $1 }
        process.environment = variables
        let input = Pipe()
        process.standardInput = input
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data((stdin ?? "").utf8))
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
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
