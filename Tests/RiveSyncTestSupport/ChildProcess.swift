import CTestProcess
import Foundation
import Glibc

/// A program a test runs: the one way the tests start child processes (tools, scripts, the
/// CLI, the daemon). Its output is read while it runs, so a test can wait for a line; every
/// wait has a hang guard, and a child still running when its owner goes away is stopped.
public final class ChildProcess: @unchecked Sendable {
    /// How a run ended.
    public struct Result: Equatable, Sendable {
        public var status: Int32
        public var stdout: String
        /// Empty when the child was started with `output: .merged`.
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }

        /// Standard output then standard error.
        public var output: String { stdout + stderr }
    }

    /// What the child reads on standard input.
    public enum Input: Sendable {
        /// `/dev/null`.
        case none
        /// This text, then end of file.
        case text(String)
        /// A pipe the test writes with `write(_:)` and ends with `closeInput()`.
        case pipe
    }

    /// Where the child's standard error goes.
    public enum Output: Sendable {
        /// Kept apart from standard output (`stderr`).
        case separate
        /// Into the same pipe as standard output, in the order written (`stdout`).
        case merged
    }

    public enum Failure: Error, CustomStringConvertible {
        case notFound(name: String, hint: String)
        case hung(command: String, seconds: Double, output: String)
        case ended(command: String, output: String)

        public var description: String {
            switch self {
            case .notFound(let name, let hint): "\(name) is not installed (\(hint))"
            case .hung(let command, let seconds, let output): "\(command) still ran after \(seconds) s (stopped); it wrote:\n\(output)"
            case .ended(let command, let output): "\(command) ended before the awaited output; it wrote:\n\(output)"
            }
        }
    }

    public let process = Process()
    /// The command line, for messages.
    public let command: String
    private let state = State()
    private let input: Pipe?

    /// What the reader threads and the termination handler share with the test.
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        // Guarded by `condition`.
        var collected = (stdout: "", stderr: "")
        var open = (stdout: true, stderr: true)
        var consumed = 0
        var exited = false
    }

    /// The absolute path of `name` on PATH; `notFound` with `hint` (how to install it) if absent.
    public static func find(_ name: String, hint: String = "not on PATH") throws -> String {
        if name.hasPrefix("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw Failure.notFound(name: name, hint: hint)
    }

    /// Starts `executable` (a path, or a name looked up on PATH) with `arguments`.
    /// `environment` is added to the test's own variables after `keeping` filtered them;
    /// `stderrEnvironment` computes more from the standard error pipe's descriptor
    /// (`JOURNAL_STREAM`, say).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        keeping: (String) -> Bool = { _ in true }, input: Input = .none, output: Output = .separate,
        stderrEnvironment: (Int32) -> [String: String] = { _ in [:] }
    ) throws {
        process.executableURL = URL(fileURLWithPath: try Self.find(executable))
        process.arguments = arguments
        command = ([executable] + arguments).joined(separator: " ")
        let out = Pipe()
        let err = output == .merged ? out : Pipe()
        process.environment = ProcessInfo.processInfo.environment.filter { keeping($0.key) }
            .merging(environment) { $1 }
            .merging(stderrEnvironment(err.fileHandleForWriting.fileDescriptor)) { $1 }
        process.standardOutput = out
        process.standardError = err
        switch input {
        case .none:
            process.standardInput = FileHandle.nullDevice
            self.input = nil
        case .text, .pipe:
            let pipe = Pipe()
            process.standardInput = pipe
            self.input = pipe
        }
        process.terminationHandler = { [state] _ in
            state.condition.withLock {
                state.exited = true
                state.condition.broadcast()
            }
        }
        try process.run()
        // The parent's copies of the write ends: the pipes end when the child's do.
        try out.fileHandleForWriting.close()
        if output == .separate { try err.fileHandleForWriting.close() }
        read(out.fileHandleForReading, stderr: false)
        if output == .separate {
            read(err.fileHandleForReading, stderr: true)
        } else {
            state.condition.withLock { state.open.stderr = false }
        }
        if case .text(let text) = input, let pipe = self.input {
            Self.ignoreBrokenPipes()
            Thread.detachNewThread {
                // The child may exit without reading (a usage error, say): EPIPE is no failure.
                try? pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
                try? pipe.fileHandleForWriting.close()  // the child may have exited without reading
            }
        }
    }

    /// Runs `executable` to its end and returns how it ended; a child still running after
    /// `seconds` is stopped and `hung` thrown.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        keeping: (String) -> Bool = { _ in true }, input: Input = .none, output: Output = .separate, seconds: Double = 120
    ) throws -> Result {
        try ChildProcess(executable, arguments, environment: environment, keeping: keeping, input: input, output: output)
            .finish(within: seconds)
    }

    /// Reads `handle` to its end on a thread of its own, into stderr or stdout.
    private func read(_ handle: FileHandle, stderr: Bool) {
        Thread.detachNewThread { [state] in
            while case let data = handle.availableData, !data.isEmpty {
                state.condition.withLock {
                    let text = String(decoding: data, as: UTF8.self)
                    if stderr { state.collected.stderr += text } else { state.collected.stdout += text }
                    state.condition.broadcast()
                }
            }
            state.condition.withLock {
                if stderr { state.open.stderr = false } else { state.open.stdout = false }
                state.condition.broadcast()
            }
        }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { state.condition.withLock { !state.exited } }
    /// Standard output so far (with standard error when merged).
    public var stdout: String { state.condition.withLock { state.collected.stdout } }
    /// Standard error so far.
    public var stderr: String { state.condition.withLock { state.collected.stderr } }

    /// Writes `text` to the child's standard input (started with `input: .pipe`).
    /// A child that already exited makes the write fail with `EPIPE`, which the child's exit
    /// status and output report better: it is not raised here.
    public func write(_ text: String) {
        Self.ignoreBrokenPipes()
        try? input?.fileHandleForWriting.write(contentsOf: Data(text.utf8))  // EPIPE: see above
    }

    /// A write to a pipe whose reader exited must fail with `EPIPE`, not kill the test process
    /// with `SIGPIPE` (its default action; the daemon ignores it in its own `main`): the test
    /// process ignores it from its start (`CTestProcess`), and this checks that it still does.
    static func ignoreBrokenPipes() {
        precondition(rs_test_process_ignores_broken_pipes() == 1, "the test process must ignore SIGPIPE")
    }

    /// Ends the child's standard input.
    public func closeInput() { try? input?.fileHandleForWriting.close() }  // closed already: nothing to end

    /// The next line of standard output not yet returned (without its newline); `ended` when
    /// the output ends first, `TimedOut` after `seconds`.
    public func nextLine(within seconds: Double = defaultWaitSeconds) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        return try state.condition.withLock {
            while true {
                let rest = state.collected.stdout.utf8.dropFirst(state.consumed)
                if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: rest[..<newline], as: UTF8.self)
                    state.consumed += rest.distance(from: rest.startIndex, to: newline) + 1
                    return line
                }
                if !state.open.stdout { throw Failure.ended(command: command, output: state.collected.stdout + state.collected.stderr) }
                if !state.condition.wait(until: deadline) { throw TimedOut(what: "a line from \(command)", seconds: seconds) }
            }
        }
    }

    /// Waits (without blocking a thread) until `find` finds something in the output so far
    /// (`stdout`, `stderr`) and returns it; `ended` if the child exits without it.
    @discardableResult
    public func waitForOutput<T>(
        _ what: @autoclosure () -> String, seconds: Double = defaultWaitSeconds, isolation: isolated (any Actor)? = #isolation,
        _ find: (_ stdout: String, _ stderr: String) -> T?
    ) async throws -> T {
        try await waitFor(what(), seconds: seconds) {
            let (found, ended) = state.condition.withLock {
                (find(state.collected.stdout, state.collected.stderr), state.exited && !state.open.stdout && !state.open.stderr)
            }
            if found == nil, ended { throw Failure.ended(command: command, output: stdout + stderr) }
            return found
        }
    }

    /// Waits for the child to exit and its output to end, and returns how it ended (`stdout`
    /// without the lines `nextLine` returned). A child
    /// still running after `seconds` is stopped (SIGTERM, then SIGKILL) and `hung` thrown.
    @discardableResult
    public func finish(within seconds: Double = 120) throws -> Result {
        guard waitForExit(seconds) else {
            stop(graceSeconds: 5)
            throw Failure.hung(command: command, seconds: seconds, output: stdout + stderr)
        }
        return result()
    }

    /// Sends SIGTERM, waits `graceSeconds` for the exit, then SIGKILL; returns the exit status.
    @discardableResult
    public func stop(graceSeconds: Double = 10) -> Int32 {
        if isRunning {
            process.terminate()
            if !waitForExit(graceSeconds) { signal(SIGKILL) }
        }
        return result().status
    }

    /// Sends `number` (SIGHUP, SIGKILL…) to the child.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// True when the child exited within `seconds`.
    private func waitForExit(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return state.condition.withLock {
            while !state.exited { if !state.condition.wait(until: deadline) { return state.exited } }
            return true
        }
    }

    /// Reaps the child and waits for the end of its output (5 s at most: a grandchild may
    /// still hold the pipe).
    private func result() -> Result {
        process.waitUntilExit()
        let drained = Date().addingTimeInterval(5)
        return state.condition.withLock {
            while state.open.stdout || state.open.stderr { if !state.condition.wait(until: drained) { break } }
            let unread = String(decoding: state.collected.stdout.utf8.dropFirst(state.consumed), as: UTF8.self)
            return Result(status: process.terminationStatus, stdout: unread, stderr: state.collected.stderr)
        }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            if !waitForExit(10) { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }
}
