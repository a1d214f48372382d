import Foundation
import XCTest

/// The real `rivesyncd` binary, started on port 0 for one test: finds it next to the test
/// bundle, reads the port from its `listening on` line, keeps the rest of its stderr for
/// failure reports, and is always stopped.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let output = Output()

    /// The daemon's stderr as read so far, and the port once its line appeared.
    private final class Output: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
        var port: Int?
        let found = DispatchSemaphore(value: 0)
        let drained = DispatchSemaphore(value: 0)
    }

    var url: String { "ws://127.0.0.1:\(port)" }

    /// Everything the daemon wrote on stderr so far.
    var stderr: String { output.lock.withLock { output.text } }

    /// The build products directory (holding this test bundle and `rivesyncd`).
    static let productsDirectory: URL = {
        let bundle = Bundle(for: DaemonProcess.self).bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }()

    /// Starts `rivesyncd arguments… --port 0` and waits for its `listening on` line.
    init(_ arguments: [String], port fixedPort: Int = 0) throws {
        let binary = Self.productsDirectory.appendingPathComponent("rivesyncd")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("rivesyncd is not built next to the tests at \(binary.path)")
        }
        process.executableURL = binary
        process.arguments = arguments + ["--port", String(fixedPort)]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        let handle = pipe.fileHandleForReading
        let output = output
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let port: Int? = output.lock.withLock {
                    output.text += String(decoding: data, as: UTF8.self)
                    guard output.port == nil,
                        let line = output.text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") })
                    else { return nil }
                    output.port = line.split(separator: ":").last.flatMap { Int($0) }
                    return output.port
                }
                if port != nil { output.found.signal() }
            }
            output.found.signal()
            output.drained.signal()
        }
        output.found.wait()
        guard let port = output.lock.withLock({ output.port }) else {
            process.waitUntilExit()
            throw DaemonError.didNotStart(output.lock.withLock { output.text })
        }
        self.port = port
    }

    /// Sends SIGTERM and waits for the process and its stderr to end. Idempotent.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if output.drained.wait(timeout: .now() + 5) == .success { output.drained.signal() }
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        stop()
    }

    deinit { stop() }

    enum DaemonError: Error {
        case didNotStart(String)
    }

    /// Writes a configuration file (and any extra files) into a new temporary directory and
    /// returns the configuration's path.
    static func writeConfiguration(_ json: String, files: [String: String] = [:]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files { try Data(contents.utf8).write(to: directory.appendingPathComponent(name)) }
        let path = directory.appendingPathComponent("config.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
