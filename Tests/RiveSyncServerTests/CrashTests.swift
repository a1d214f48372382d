import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Clients append players and write a big lobby title continuously while the daemon is
/// killed with SIGKILL at random moments and restarted on the same port and state directory,
/// while its disk fills up for a while in the middle (a tmpfs), while clients drop their
/// connections, and while a slow reader (a raw socket that stops reading for a while) falls
/// behind and gets catch-up snapshots. Afterwards: every acked
/// append is in the list exactly once, the recorded history passes the checker, and every
/// client's replica (the slow reader's too) has the daemon's digest.
@Suite(.serialized) struct CrashTests {
    static let crashes = 10
    static let clientCount = 4
    /// Players each writer tries to append: bounds the lobby's snapshot well below
    /// `sendQueueBytes` (a snapshot bigger than the send queue would close the connection).
    static let appendsPerClient = 50
    /// Each writer op also sets the lobby title to about this many bytes, so that the slow
    /// reader's send queue fills.
    static let titleBytes = 8_000
    /// The title of the last burst (one set per advance): batches just under half the send
    /// queue, and a snapshot (title and players) well under the queue.
    static let burstTitleBytes = 16_000
    /// The daemon's `maxSendQueueBytes` (its minimum): batches stop at half of it.
    static let sendQueueBytes = 65_536
    /// Sets of the last burst: about twice what the daemon's socket (`socketSendBufferBytes`,
    /// 256 KiB, doubled by the kernel), the reader's 4 KiB and the send queue hold together.
    static let heldBurstSets = 80

    /// A daemon configuration like `--demo` (file `demo`, `theme`, `character` and `lobby`)
    /// with a small send queue and a state directory.
    static func configuration(state: String) throws -> String {
        let config: JSONValue = [
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateMachines": [
                [
                    "name": "character", "file": "demo", "artboard": "Character", "stateMachine": "character",
                    "globals": ["Theme": "theme"], "rate": 60,
                ],
                ["name": "lobby", "file": "demo", "artboard": "Lobby", "stateMachine": "lobby", "globals": ["Theme": "theme"], "rate": 60],
            ],
            "limits": ["maxSendQueueBytes": .number(Double(sendQueueBytes))],
            "auth": ["allowAnonymous": "loopback"],
            "stateDirectory": .string(state),
        ]
        let path = state + ".config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Sets the lobby title to `burstTitleBytes` `heldBurstSets` times, one set per advance
    /// (each awaits its ack), while the slow reader holds a fresh subscription unread, then
    /// waits until the daemon's `/metrics` count a catch-up (sent once the reader has drained
    /// what was queued; the guard is on its progress); records the commands in the history as
    /// client `burst`. Returns the number of sets. With the reader reading on, whether it fell
    /// behind was a race with the writer (a machine at load 22 once made only 43 sets in 15 s).
    @discardableResult
    static func burstUntilCatchUp(_ daemon: DaemonProcess, history: Locked<HistoryChecker>, holding reader: SlowCrashReader)
        async throws -> Int
    {
        let client = try await TestClient.connected(to: daemon)
        defer { client.close() }
        func record(_ members: [(String, JSONValue)]) {
            history.withLock { $0.record(.object([("client", "burst")] + members)) }
        }
        try await reader.holdingReads {
            for set in 1...heldBurstSets {
                let op = "burst-\(set)"
                record([("kind", "invoke"), ("op", .string(op))])
                let title = op + "-" + String(repeating: "b", count: burstTitleBytes)
                let reply = try await client.request(["type": "set", "target": "lobby", "path": "title", "value": .string(title)])
                if reply["type"] == "ack" {
                    record([("kind", "ok"), ("op", .string(op)), ("command", reply["command"] ?? .null), ("seq", reply["seq"] ?? .null)])
                } else {
                    record([("kind", "fail"), ("op", .string(op))])
                }
            }
        }
        let what = "a catch-up on /metrics after \(heldBurstSets) big titles to a held reader"
        try await waitUntil(what, progressing: { reader.messagesRead }) { try await catchUpsSent(daemon) > 0 }
        return heldBurstSets
    }

    /// Fills the disk until the daemon has refused a journal write, keeps it full a little
    /// longer, then frees it; the writers carry on throughout (and before the next kill, so
    /// acked records follow the refused ones in the log).
    static func fullDiskEpisode(_ disk: Tmpfs, daemon: DaemonProcess) async throws {
        try disk.fill(leaving: 4_096)
        try await waitUntil("a refused journal write on a full disk:\n\(daemon.stderr)") { daemon.stderr.contains("journal write failed") }
        try await Task.sleep(nanoseconds: 200_000_000)  // keeps the disk full a little longer (not a wait for anything)
        try disk.release()
    }

    /// `rivesync_catch_ups_total` of the running daemon.
    static func catchUpsSent(_ daemon: DaemonProcess) async throws -> Int {
        let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(daemon.port)/metrics")!)
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("rivesync_catch_ups_total ") }
        return Int(line?.split(separator: " ").last ?? "") ?? 0
    }

    @Test func acknowledgedWritesSurviveKillsAndClientsConverge() async throws {
        let disk = try Tmpfs(bytes: 64 << 20)
        let state = disk.path + "/state"
        let configPath = try Self.configuration(state: state)
        let port = try DaemonProcess.freePort()
        let daemon = Locked<DaemonProcess>(try await DaemonProcess.start(["--config", configPath], port: port))
        let running = Locked(true)
        let history = Locked(HistoryChecker())
        let acked = Locked<[String]>([])
        let writers = (0..<Self.clientCount).map {
            CrashWorkloadClient(name: "c\($0)", url: "ws://127.0.0.1:\(port)/", history: history) {
                running.withLock { $0 }
            }
        }
        let slow = SlowCrashReader(name: "slow", port: port, history: history)
        slow.start()
        defer { slow.stop() }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in writers {
                group.addTask {
                    while running.withLock({ $0 }) {
                        let names = await writer.runSession()
                        acked.withLock { $0 += names }
                    }
                }
            }
            group.addTask {
                // Writers stop when this task ends, also when it fails (else the group hangs).
                defer { running.withLock { $0 = false } }
                var rng = SystemRandomNumberGenerator()
                for crash in 0..<Self.crashes {
                    if crash == Self.crashes / 2 { try await Self.fullDiskEpisode(disk, daemon: daemon.withLock { $0 }) }
                    try await Task.sleep(nanoseconds: UInt64.random(in: 150_000_000...450_000_000, using: &rng))
                    await daemon.withLock { $0 }.crashed()
                    try await Task.sleep(nanoseconds: 50_000_000)
                    let restarted = try await DaemonProcess.start(["--config", configPath], port: port)
                    daemon.withLock { $0 = restarted }
                }
                try await Task.sleep(nanoseconds: 300_000_000)
                // The slow reader's kernel buffers take more than the short lives above may
                // send it: a last burst of big titles while it reads nothing, until the daemon
                // reports a catch-up (the reader then meets it in its stream).
                let live = daemon.withLock { $0 }
                try await Self.burstUntilCatchUp(live, history: history, holding: slow)
            }
            try await group.waitForAll()
        }
        let last = daemon.withLock { $0 }
        try await stopping(last) { final in
            let probe = try await TestClient.connected(to: final)
            let digest = try await probe.request(["type": "digest", "target": "lobby"])
            let names = try await PersistenceTests.playerNames(probe)
            let ackedNames = acked.withLock { $0 }
            #expect(ackedNames.count > 20, "the workload made progress (\(ackedNames.count) acked appends)")
            for name in ackedNames {
                #expect(names.filter { $0 == name }.count == 1, "acked \(name) is in the list once")
            }
            for writer in writers {
                let replicaDigest = try await writer.finalDigest(waitingFor: digest["seq"]?.intValue ?? 0)
                #expect(replicaDigest == digest["digest"]?.stringValue, "\(writer.name)'s replica")
            }
            let slowDigest = try await slow.finalDigest(waitingFor: digest["seq"]?.intValue ?? 0)
            let reader = slow.shared.withLock { $0 }
            let overflowCloses = writers.map(\.overflowCloses).reduce(reader.overflowCloses, +)
            #expect(slowDigest == digest["digest"]?.stringValue, "the slow reader's replica")
            #expect(reader.failures.isEmpty, "slow reader: \(reader.failures.prefix(5).joined(separator: "\n"))")
            #expect(reader.catchUps >= 1, "the slow reader fell behind and got a catch-up snapshot")
            let problems = history.withLock { $0.violations() }
            let events = history.withLock { $0.events.count }
            print(
                "crash test: \(Self.crashes) SIGKILLs and a full-disk episode, \(ackedNames.count) acked appends checked, \(events) history events, final seq \(digest["seq"]?.intValue ?? 0); "
                    + "slow reader: \(reader.catchUps) catch-ups, \(reader.batches) batches, \(reader.sessions) sessions (\(reader.resumes) resumed), "
                    + "largest message \(reader.largestMessage) bytes; \(overflowCloses) connections closed 1008")
            #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
            #expect(overflowCloses == 0, "a resume that does not fit the send queue gets a snapshot, not a 1008 close")
        }
    }
}

/// A client of the crash workload: one connection per session; subscribes to `lobby` with
/// its cursor, appends players until its connection drops, keeps a replica and a history.
/// Something a crash-workload client found wrong (not a lost connection).
struct WorkloadFailure: Error, CustomStringConvertible {
    let description: String
}

final class CrashWorkloadClient: @unchecked Sendable {
    let name: String
    let url: String
    let history: Locked<HistoryChecker>
    private var epoch: String?
    private var replica: Replica?
    private var schema: FileSchema?
    private var operation = 0
    private var appendAttempts = 0
    private var client: TestClient?
    /// False after a connection was closed with 1008: the daemon found its send queue full at
    /// once, i.e. a resume's missing batches did not fit (PROTOCOL.md §12 promises a catch-up
    /// there instead). The next subscribe then goes without a cursor.
    private var useCursor = true
    /// Connections the daemon closed with 1008.
    private(set) var overflowCloses = 0
    private let keepGoing: @Sendable () -> Bool

    init(name: String, url: String, history: Locked<HistoryChecker>, keepGoing: @escaping @Sendable () -> Bool = { true }) {
        self.name = name
        self.url = url
        self.history = history
        self.keepGoing = keepGoing
    }

    /// One connection: returns the names whose appends were acked.
    func runSession() async -> [String] {
        let done = Locked<[String]>([])
        do {
            try await session(into: done)
        } catch is TestClient.Closed {
            // The daemon was killed under the session (what this workload is for).
        } catch is TimedOut {
            // A reply lost in the kill: the request is in the history as info.
        } catch {
            Issue.record("\(name): \(error)")
        }
        noteOverflow(client)
        return done.withLock { $0 }
    }

    private func noteOverflow(_ client: TestClient?) {
        if client?.closeCode == .some(1008) {
            overflowCloses += 1
            useCursor = false
        }
    }

    private func session(into done: Locked<[String]>) async throws {
        let client: TestClient
        // Refused or cut: the daemon is down between a kill and its restart; the caller tries again.
        do { client = try TestClient(url: url) } catch {
            try await Task.sleep(nanoseconds: 20_000_000)
            return
        }
        self.client = client
        defer { client.close() }
        let welcome: JSONValue
        do { welcome = try await client.request(["type": "hello", "protocol": [1]]) } catch {
            try await Task.sleep(nanoseconds: 20_000_000)
            return
        }
        guard welcome["type"] == "welcome" else {
            Issue.record("\(name): hello answered with \(welcome.jsonText)")
            return
        }
        if schema == nil {
            schema = try FileSchema(json: try await client.request(["type": "describe", "file": "demo"])["schema"] ?? .null)
        }
        var subscribe: JSONValue = ["type": "subscribe", "target": "lobby"]
        if useCursor, let replica, let epoch, case .object(var members) = subscribe {
            members.append(("cursor", ["epoch": .string(epoch), "seq": .number(Double(replica.seq))]))
            subscribe = .object(members)
        }
        useCursor = true
        let reply = try await client.request(subscribe)
        epoch = welcome["epoch"]?.stringValue
        try start(from: reply)
        let sessionLength = Int.random(in: 5...40)
        for _ in 0..<sessionLength where keepGoing() {
            operation += 1
            let op = "\(name)-\(operation)"
            do {
                if appendAttempts < CrashTests.appendsPerClient {
                    appendAttempts += 1
                    if try await appendPlayer(client, op) { done.withLock { $0.append(op) } }
                }
                let title = op + "-" + String(repeating: "t", count: CrashTests.titleBytes)
                _ = try await command(client, op + "/title", ["type": "set", "target": "lobby", "path": "title", "value": .string(title)])
            } catch {
                return  // the connection ended (a kill): `command` recorded the request as info
            }
        }
    }

    /// Creates a player named `op` and appends it to the lobby; true when the append was acked.
    private func appendPlayer(_ client: TestClient, _ op: String) async throws -> Bool {
        let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
        try drainBatches(client)
        guard let instance = created["instance"] else {
            // A full disk refuses the create (the full-disk episode); anything else is wrong.
            guard created["code"] == "storage_failed" else {
                throw WorkloadFailure(description: "createInstance answered \(created.jsonText)")
            }
            return false
        }
        let named = try await command(
            client, op + "/name",
            ["type": "set", "target": "lobby", "path": .string("#\(instance.intValue ?? 0)/name"), "value": .string(op)])
        guard named else { return false }
        return try await command(
            client, op + "/append", ["type": "listAppend", "target": "lobby", "path": "players", "instance": instance])
    }

    /// Sends one command and records invoke and ok / fail / info; true when acked.
    private func command(_ client: TestClient, _ op: String, _ request: JSONValue) async throws -> Bool {
        record(["kind": "invoke", "op": .string(op)])
        let reply: JSONValue
        do {
            reply = try await client.request(request)
        } catch {
            record(["kind": "info", "op": .string(op)])
            throw error
        }
        try drainBatches(client)
        if reply["type"] == "ack" {
            record(["kind": "ok", "op": .string(op), "command": reply["command"] ?? .null, "seq": reply["seq"] ?? .null])
            return true
        }
        record(["kind": "fail", "op": .string(op)])
        return false
    }

    private func start(from reply: JSONValue) throws {
        guard let schema else { throw WorkloadFailure(description: "no schema before subscribing") }
        if reply["type"] == "snapshot" {
            replica = Replica(snapshot: try StateCodec.decodeSnapshot(reply, target: "lobby", schema: schema))
        }
        record(["kind": "start", "seq": reply["seq"] ?? .null, "resumed": reply["resumed"] ?? .bool(false)])
    }

    private func drainBatches(_ client: TestClient) throws {
        for batch in client.takeAll(where: { $0["type"] == "batch" }) {
            try apply(batch)
        }
    }

    private func apply(_ batch: JSONValue) throws {
        guard let schema, var replica else {
            throw WorkloadFailure(description: "batch \(batch["seq"]?.intValue ?? -1) before any snapshot")
        }
        try replica.apply(try StateCodec.decodeBatch(batch, schema: schema, replica: replica))
        self.replica = replica
        record([
            "kind": "batch", "seq": batch["seq"] ?? .null, "commands": batch["commands"] ?? .null,
            "effects": .string(ContentDigest.sha256Hex(batch["effects"]?.serialized() ?? [])),
        ])
    }

    private func record(_ event: JSONValue) {
        guard case .object(let members) = event else { return }
        history.withLock { $0.record(.object([("client", .string(name))] + members)) }
    }

    /// Connects once more, resumes, applies batches up to `seq`, and returns the replica's
    /// digest. A resume closed with 1008 (its missing batches did not fit in the send queue)
    /// is retried once without the cursor.
    func finalDigest(waitingFor seq: Int) async throws -> String? {
        do {
            return try await finalSession(waitingFor: seq)
        } catch {
            guard !useCursor else { throw error }
            return try await finalSession(waitingFor: seq)
        }
    }

    private func finalSession(waitingFor seq: Int) async throws -> String? {
        let client = try TestClient(url: url)
        defer { client.close() }
        do {
            _ = try await client.request(["type": "hello", "protocol": [1]])
            if useCursor, let replica, let epoch {
                try start(
                    from: try await client.request([
                        "type": "subscribe", "target": "lobby", "cursor": ["epoch": .string(epoch), "seq": .number(Double(replica.seq))],
                    ]))
            } else {
                try start(from: try await client.request(["type": "subscribe", "target": "lobby"]))
            }
            useCursor = true
            while (replica?.seq ?? 0) < UInt64(seq) {
                try apply(try await client.nextBatch("lobby"))
            }
            return replica?.digest
        } catch {
            noteOverflow(client)
            throw error
        }
    }
}
