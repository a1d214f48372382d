import Foundation
import RiveSyncClient

/// `rivesync script FILE [--timeout SECONDS]`: runs a scripted test client (see `Script`).
/// Prints `ok LINE: STEP` per step and `passed N steps`; the first unmet expectation ends the
/// run with exit status 1 and the expected and actual values.
enum ScriptCommand {
    static let spec = CommandSpec(
        name: "script", summary: "Run a scripted test client: set, fire, expect value, expect trigger, wait batch, sleep.",
        positionals: ["FILE"],
        options: RemoteCommand.options + [.init("timeout", valueName: "SECONDS", help: "longest 'wait batch' (default 10)")]
    ) { (arguments, console) throws(CommandError) in
        let path = arguments.positionals[0]
        guard let data = FileManager.default.contents(atPath: path) else { throw .failure("\(path): cannot be read") }
        let script = try Script(text: String(decoding: data, as: UTF8.self), name: path)
        var timeout: Double = 10
        if let text = arguments.value("timeout") {
            guard let seconds = Double(text), seconds > 0 else { throw .usage("script: --timeout needs a positive number of seconds") }
            timeout = seconds
        }
        let limit = timeout
        try RemoteCommand.run(arguments, &console) { worker, output in
            var runner = try await ScriptRunner(script: script, name: path, worker: worker, timeout: limit)
            for line in script.lines {
                try await runner.run(line)
                output.line("ok \(line.number): \(line.text)")
            }
            output.line("passed \(script.lines.count) steps")
        }
    }
}

/// Runs steps against live targets; remembers the trigger counts and batch seqs each
/// `expect trigger` and `wait batch` counts from.
struct ScriptRunner {
    let name: String
    let worker: Worker
    let timeout: Double
    var targets: [String: RemoteTarget] = [:]
    var fireBaselines: [String: UInt64] = [:]
    var waitBaselines: [String: UInt64] = [:]

    init(script: Script, name: String, worker: Worker, timeout: Double) async throws {
        self.name = name
        self.worker = worker
        self.timeout = timeout
        for line in script.lines {
            guard let target = line.step.target, targets[target] == nil else { continue }
            let remote = try await worker.target(named: target)
            targets[target] = remote
            waitBaselines[target] = try await remote.seq()
        }
        try await worker.synchronize()
        for line in script.lines {
            guard case .expectTrigger(let target, let path, _) = line.step, fireBaselines[target + " " + path] == nil else { continue }
            fireBaselines[target + " " + path] = try await fires(target, path)
        }
    }

    mutating func run(_ line: Script.Line) async throws {
        switch line.step {
        case .set(let target, let path, let text):
            let remote = targets[target]!
            let type = try await remote.value(at: path).type
            try await remote.setValue(at: path, to: try await ValueText.parse(text, as: type, path: path, worker: worker))
        case .fire(let target, let path):
            try await targets[target]!.fire(at: path)
        case .expectValue(let target, let path, let text):
            try await worker.synchronize()
            let (type, actual) = try await targets[target]!.value(at: path)
            let expected = try await ValueText.parse(text, as: type, path: path, worker: worker)
            guard expected == actual else { throw unmet(line, expected.jsonText, actual.jsonText) }
        case .expectTrigger(let target, let path, let expected):
            try await worker.synchronize()
            let fired = try await fires(target, path) - fireBaselines[target + " " + path]!
            guard fired == expected else { throw unmet(line, "fired \(expected) times", "fired \(fired) times") }
        case .waitBatch(let target, let count):
            let remote = targets[target]!
            let seq = waitBaselines[target]! + count
            let limit = timeout
            let message = "\(name):\(line.number): \(line.text)\n  timed out after \(limit)s waiting for batch \(seq)"
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await remote.waitForSeq(seq) }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(limit * 1000))
                    throw CommandError.failure(message)
                }
                defer { group.cancelAll() }
                try await group.next()
            }
            waitBaselines[target] = try await remote.seq()
        case .sleep(let duration):
            try await Task.sleep(for: duration)
        }
    }

    private func fires(_ target: String, _ path: String) async throws -> UInt64 {
        guard case .trigger(let count) = try await targets[target]!.value(at: path).value else {
            throw CommandError.failure("\(name): '\(path)' of '\(target)' is not a trigger")
        }
        return count
    }

    private func unmet(_ line: Script.Line, _ expected: String, _ actual: String) -> CommandError {
        .failure("\(name):\(line.number): \(line.text)\n  expected: \(expected)\n  actual:   \(actual)")
    }
}
