import RiveSyncClient
import RiveSyncWebSocket

/// Runs script steps against live targets over one or more connections; remembers the trigger
/// counts and batch seqs that `expect trigger` and `wait batch` count from, and the commands
/// queued on manual targets that an `advance` must see applied.
struct ScriptRunner {
    /// One named connection and what it remembers.
    struct Connection {
        let worker: Worker
        var targets: [String: RemoteTarget] = [:]
        var waitBaselines: [String: UInt64] = [:]
        var queued: [String: [Task<Receipt, any Error>]] = [:]
    }

    let name: String
    let url: String
    let token: String?
    /// The transport of the script's `connect` connections (`--insecure`), nil for the default.
    let transport: (any WebSocketTransport)?
    let timeout: Double
    var connections: [String: Connection]
    var fireBaselines: [String: UInt64] = [:]
    var manual: Set<String> = []

    init(
        script: Script, name: String, worker: Worker, url: String, token: String?, transport: (any WebSocketTransport)?, timeout: Double
    ) async throws {
        self.name = name
        self.url = url
        self.token = token
        self.transport = transport
        self.timeout = timeout
        connections = ["": Connection(worker: worker)]
        manual = Set(try await worker.getTargets().filter { $0.mode == "manual" }.map(\.name))
        for line in script.lines where line.connection.isEmpty {
            if let target = line.step.target { _ = try await remote(target, on: "") }
        }
        try await worker.synchronize()
        for line in script.lines {
            guard case .expectTrigger(let target, let path, _) = line.step, fireBaselines[target + " " + path] == nil else { continue }
            fireBaselines[target + " " + path] = try await fires(target, path, on: "")
        }
    }

    /// The target on a connection, remembered with its seq as the first `wait batch` baseline.
    mutating func remote(_ target: String, on connection: String) async throws -> RemoteTarget {
        if let remote = connections[connection]!.targets[target] { return remote }
        let remote = try await connections[connection]!.worker.target(named: target)
        connections[connection]!.targets[target] = remote
        connections[connection]!.waitBaselines[target] = try await remote.seq()
        return remote
    }

    mutating func run(_ line: Script.Line) async throws {
        var limit = timeout
        if case .waitValue(_, _, _, let within?) = line.step { limit += Self.seconds(within) }  // its own limit comes first
        let message = "\(name):\(line.number): \(line.text)\n  timed out after \(RemoteCommand.seconds(limit))"
        var copy = self
        let step = line.step
        copy = try await Self.within(limit, message) { [copy] in
            var runner = copy
            try await runner.perform(step, line: line)
            return runner
        }
        self = copy
    }

    /// `body`'s result, or `CommandError.timeout(message)` after `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ message: String, _ body: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(seconds * 1000))
                throw CommandError.timeout(message)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private mutating func perform(_ step: Script.Step, line: Script.Line) async throws {
        let on = line.connection
        switch step {
        case .connect(let name, let address):
            let worker = try await Worker(
                url: address ?? url, token: token, clientName: "rivesync script", reconnect: false, transport: transport)
            connections[name] = Connection(worker: worker)
        case .set, .fire, .list, .bind:
            guard let target = step.target else { return }
            let command = try await command(step, on: on)
            if manual.contains(target) {
                connections[on]!.queued[target, default: []].append(Task { try await command() })
            } else {
                _ = try await command()
            }
        case .advance(let target, let elapsed):
            // The queued commands apply first (an advance of 0 s until each is acknowledged:
            // one may reach the daemon after an advance), then the state machine runs.
            let machine = try await connections[on]!.worker.stateMachine(named: target)
            let queued = connections[on]!.queued.removeValue(forKey: target) ?? []
            for task in queued { _ = try await ManualTargets.advanceUntilApplied(machine, task) }
            if queued.isEmpty || elapsed > 0 { try await machine.advance(elapsed: elapsed) }
        case .expectValue(let target, let path, let expected):
            try await connections[on]!.worker.synchronize()
            let (type, actual) = try await remote(target, on: on).value(at: path)
            let wanted = try await ValueText.parse(expected.text, as: type, path: path, worker: connections[on]!.worker)
            guard Self.matches(actual, wanted, expected.tolerance) else { throw unmet(line, describe(wanted, expected), actual.jsonText) }
        case .expectTrigger(let target, let path, let expected):
            try await connections[on]!.worker.synchronize()
            let fired = try await fires(target, path, on: on) - fireBaselines[target + " " + path]!
            guard fired == expected else { throw unmet(line, "fired \(expected) times", "fired \(fired) times") }
        case .expectError(let code, let inner):
            guard let target = inner.target else { return }
            let command = try await command(inner, on: on)
            do {
                if case .advance(_, let elapsed) = inner {
                    try await connections[on]!.worker.stateMachine(named: target).advance(elapsed: elapsed)
                } else {
                    _ = try await command()
                }
            } catch {
                let actual = ErrorCodes.commandError(error)
                guard actual.code == code else { throw unmet(line, "error \(code)", "error \(actual.code): \(actual.message)") }
                return
            }
            throw unmet(line, "error \(code)", "success")
        case .waitBatch(let target, let count):
            let remote = try await remote(target, on: on)
            let seq = connections[on]!.waitBaselines[target]! + count
            try await remote.waitForSeq(seq)
            connections[on]!.waitBaselines[target] = try await remote.seq()
        case .waitValue(let target, let path, let expected, let within):
            let remote = try await remote(target, on: on)
            let type = try await remote.value(at: path).type
            let wanted = try await ValueText.parse(expected.text, as: type, path: path, worker: connections[on]!.worker)
            let tolerance = expected.tolerance
            let seconds = within.map(Self.seconds) ?? timeout
            let last = LastValue()
            let stream = remote.valueStream(at: path, includingCurrent: true)
            do {
                try await Self.within(seconds, "") {
                    for try await value in stream {
                        await last.set(value)
                        if Self.matches(value, wanted, tolerance) { return }
                    }
                }
            } catch CommandError.timeout {
                let seen = await last.value?.jsonText ?? "nothing"
                throw CommandError.expectationFailed(
                    "\(name):\(line.number): \(line.text)\n  expected: \(describe(wanted, expected)) within \(RemoteCommand.seconds(seconds))\n  actual:   \(seen)"
                )
            }
        case .sleep(let duration):
            try await Task.sleep(for: duration)
        }
    }

    /// A set, fire, list edit or bind as a call that returns the acknowledgement.
    private mutating func command(_ step: Script.Step, on: String) async throws -> @Sendable () async throws -> Receipt {
        guard let targetName = step.target else { throw CommandError.failure("no target") }
        let target = try await remote(targetName, on: on)
        let worker = connections[on]!.worker
        switch step {
        case .set(_, let path, let text):
            let type = try await target.value(at: path).type
            let value = try await ValueText.parse(text, as: type, path: path, worker: worker)
            return { try await target.setValue(at: path, to: value) }
        case .fire(_, let path):
            return { try await target.fire(at: path) }
        case .list(let words):
            let edit = try ListCommand.edit(words, path: words[2])
            var item: UInt64?
            if let text = edit.item { item = try await InstanceText.resolve(text, file: try await target.fileName(), worker: worker) }
            let resolved = item
            return { try await edit.apply(target, resolved) }
        case .bind(_, let words):
            var main: UInt64?
            var globals: [(String, UInt64)] = []
            for word in words {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                let id = try await InstanceText.resolve(parts[1], file: try await target.fileName(), worker: worker)
                if parts[0] == "main" { main = id } else { globals.append((parts[0], id)) }
            }
            let (chosenMain, chosenGlobals) = (main, globals)
            return { try await target.bind(main: chosenMain, globals: chosenGlobals) }
        default:
            return { throw CommandError.failure("not a command") }
        }
    }

    /// Fails when commands queued on manual targets were never applied; closes the connections.
    mutating func finish() async throws {
        let waiting = connections.values.flatMap { $0.queued.filter { !$0.value.isEmpty }.map(\.key) }.sorted()
        await close()
        guard waiting.isEmpty else {
            throw CommandError.expectationFailed(
                "\(name): commands on manual target\(waiting.count == 1 ? "" : "s") \(waiting.joined(separator: ", ")) never applied (add 'advance TARGET')"
            )
        }
    }

    /// Closes the connections the script opened (the script's own is closed by the caller).
    func close() async {
        for (key, connection) in connections where !key.isEmpty {
            connection.queued.values.joined().forEach { $0.cancel() }
            await connection.worker.close()
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func matches(_ actual: DynamicValue, _ expected: DynamicValue, _ tolerance: Double?) -> Bool {
        if let tolerance, case .number(let a) = actual, case .number(let e) = expected { return abs(Double(a) - Double(e)) <= tolerance }
        return actual == expected
    }

    private func describe(_ value: DynamicValue, _ expected: Script.Expected) -> String {
        value.jsonText + (expected.tolerance.map { " ~\($0)" } ?? "")
    }

    private func fires(_ target: String, _ path: String, on: String) async throws -> UInt64 {
        guard case .trigger(let count) = try await connections[on]!.worker.target(named: target).value(at: path).value else {
            throw CommandError.failure("\(name): '\(path)' of '\(target)' is not a trigger")
        }
        return count
    }

    private func unmet(_ line: Script.Line, _ expected: String, _ actual: String) -> CommandError {
        .expectationFailed("\(name):\(line.number): \(line.text)\n  expected: \(expected)\n  actual:   \(actual)")
    }
}

/// The last value a `wait value` saw.
actor LastValue {
    private(set) var value: DynamicValue?

    func set(_ value: DynamicValue) { self.value = value }
}
