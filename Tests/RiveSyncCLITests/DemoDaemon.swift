import Foundation
import XCTest

/// A `rivesyncd --demo` on port 0 for one test, found next to the test bundle; stopped in
/// teardown, its stderr printed when the test failed.
final class DemoDaemon: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var text = ""
    private let ended = DispatchSemaphore(value: 0)
    private(set) var port = 0

    var url: String { "ws://127.0.0.1:\(port)" }

    /// What the daemon wrote on stderr so far.
    var stderr: String { lock.withLock { text } }

    init() throws {
        let binary = RivesyncProcess.productsDirectory.appendingPathComponent("rivesyncd")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("rivesyncd is not built next to the tests at \(binary.path)")
        }
        process.executableURL = binary
        process.arguments = ["--demo", "--port", "0"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        let handle = pipe.fileHandleForReading
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            var signalled = false
            while case let data = handle.availableData, !data.isEmpty {
                let port: Int? = lock.withLock {
                    text += String(decoding: data, as: UTF8.self)
                    let line = text.split(separator: "\n").first { $0.hasPrefix("listening on ") }
                    return line?.split(separator: ":").last.flatMap { Int($0) }
                }
                if let port, !signalled {
                    self.lock.withLock { self.port = port }
                    signalled = true
                    started.signal()
                }
            }
            if !signalled { started.signal() }
            ended.signal()
        }
        started.wait()
        guard lock.withLock({ port }) > 0 else {
            process.waitUntilExit()
            throw XCTSkip("rivesyncd did not start: \(stderr)")
        }
    }

    /// SIGTERM, then waits for the process and its stderr. Idempotent.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if ended.wait(timeout: .now() + 5) == .success { ended.signal() }
    }

    deinit { stop() }
}

/// A CLI test with its own demo daemon.
class DaemonCLITestCase: XCTestCase {
    var daemon: DemoDaemon!

    override func setUpWithError() throws {
        daemon = try DemoDaemon()
    }

    override func tearDown() {
        daemon?.stop()
        if let run = testRun, run.totalFailureCount > 0, let daemon { print("rivesyncd stderr:\n\(daemon.stderr)") }
        daemon = nil
    }

    /// Runs `rivesync arguments… --url <daemon>`.
    func rivesync(_ arguments: String...) throws -> RivesyncProcess.Result {
        try RivesyncProcess.run(arguments + ["--url", daemon.url])
    }
}
