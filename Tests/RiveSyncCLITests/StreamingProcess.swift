import Foundation
import XCTest

/// A `rivesync` run whose output is read while it runs (for `watch`). It is killed if it has
/// not ended after 20 s (a hang guard), and always reaped.
final class StreamingProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var stdout = ""
    private var consumed = 0
    private var stdoutEnded = false
    private let stderrPipe = Pipe()

    struct HangGuard: Error {}

    init(_ arguments: [String]) throws {
        process.executableURL = RivesyncProcess.productsDirectory.appendingPathComponent("rivesync")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = stderrPipe
        try process.run()
        try out.fileHandleForWriting.close()
        try stderrPipe.fileHandleForWriting.close()
        let handle = out.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let data = handle.availableData, !data.isEmpty {
                condition.withLock {
                    stdout += String(decoding: data, as: UTF8.self)
                    condition.broadcast()
                }
            }
            condition.withLock {
                stdoutEnded = true
                condition.broadcast()
            }
        }
    }

    /// The next line of standard output (without its newline).
    func nextLine() throws -> String {
        try condition.withLock {
            let deadline = Date().addingTimeInterval(20)
            while true {
                let rest = stdout.dropFirst(consumed)
                if let newline = rest.firstIndex(of: "\n") {
                    let line = String(rest[..<newline])
                    consumed += line.count + 1
                    return line
                }
                if stdoutEnded || !condition.wait(until: deadline) { throw HangGuard() }
            }
        }
    }

    /// Waits for the exit; returns the status, the output not yet read by `nextLine`, and
    /// standard error.
    func finish() throws -> RivesyncProcess.Result {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let errors = stderrPipe.fileHandleForReading.readDataToEndOfFile()
        let rest = condition.withLock {
            while !stdoutEnded { condition.wait() }
            return String(stdout.dropFirst(consumed))
        }
        return .init(status: process.terminationStatus, stdout: rest, stderr: String(decoding: errors, as: UTF8.self))
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
