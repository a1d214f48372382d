import Foundation
import RiveSyncJSON
import RiveSyncTransport
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Clients append players continuously while the daemon is killed with SIGKILL at random
/// moments and restarted on the same port and state directory, and while clients drop their
/// connections. Afterwards: every acked append is in the list exactly once, the recorded
/// history passes the checker, and every client's replica has the daemon's digest.
@Suite(.serialized) struct CrashTests {
    static let crashes = 10
    static let clientCount = 4

    @Test func acknowledgedWritesSurviveKillsAndClientsConverge() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let port = try DaemonProcess.freePort()
        let daemon = Locked<DaemonProcess>(try DaemonProcess(["--demo", "--state-dir", state], port: port))
        let running = Locked(true)
        let history = Locked(HistoryChecker())
        let acked = Locked<[String]>([])
        let writers = (0..<Self.clientCount).map { CrashWorkloadClient(name: "c\($0)", url: "ws://127.0.0.1:\(port)/", history: history) }

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
                var rng = SystemRandomNumberGenerator()
                for _ in 0..<Self.crashes {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 150_000_000...450_000_000, using: &rng))
                    daemon.withLock { $0.crash() }
                    try await Task.sleep(nanoseconds: 50_000_000)
                    let restarted = try DaemonProcess(["--demo", "--state-dir", state], port: port)
                    daemon.withLock { $0 = restarted }
                }
                try await Task.sleep(nanoseconds: 300_000_000)
                running.withLock { $0 = false }
            }
            try await group.waitForAll()
        }
        let final = daemon.withLock { $0 }
        defer { final.stop() }
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
        let problems = history.withLock { $0.violations() }
        let events = history.withLock { $0.events.count }
        print("crash test: \(Self.crashes) SIGKILLs, \(ackedNames.count) acked appends checked, \(events) history events, final seq \(digest["seq"]?.intValue ?? 0)")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }
}

/// A client of the crash workload: one connection per session; subscribes to `lobby` with
/// its cursor, appends players until its connection drops, keeps a replica and a history.
final class CrashWorkloadClient: @unchecked Sendable {
    let name: String
    let url: String
    let history: Locked<HistoryChecker>
    private var epoch: String?
    private var replica: Replica?
    private var schema: FileSchema?
    private var operation = 0
    private var client: TestClient?

    init(name: String, url: String, history: Locked<HistoryChecker>) {
        self.name = name
        self.url = url
        self.history = history
    }

    /// One connection: returns the names whose appends were acked.
    func runSession() async -> [String] {
        let done = Locked<[String]>([])
        do { try await session(into: done) } catch {}
        return done.withLock { $0 }
    }

    private func session(into done: Locked<[String]>) async throws {
        let client: TestClient
        do { client = try TestClient(url: url) } catch {
            try await Task.sleep(nanoseconds: 20_000_000)
            return
        }
        self.client = client
        defer { client.close() }
        guard let welcome = try? await client.request(["type": "hello", "protocol": [1]]), welcome["type"] == "welcome" else {
            try await Task.sleep(nanoseconds: 20_000_000)
            return
        }
        if schema == nil {
            schema = try FileSchema(json: try await client.request(["type": "describe", "file": "demo"])["schema"] ?? .null)
        }
        var subscribe: JSONValue = ["type": "subscribe", "target": "lobby"]
        if let replica, let epoch, case .object(var members) = subscribe {
            members.append(("cursor", ["epoch": .string(epoch), "seq": .number(Double(replica.seq))]))
            subscribe = .object(members)
        }
        let reply = try await client.request(subscribe)
        epoch = welcome["epoch"]?.stringValue
        try start(from: reply)
        let sessionLength = Int.random(in: 5...40)
        for _ in 0..<sessionLength {
            operation += 1
            let op = "\(name)-\(operation)"
            do {
                let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
                try drainBatches(client)
                guard let instance = created["instance"] else { throw TestClient.Closed() }
                let named = try await command(
                    client, op + "/name", ["type": "set", "target": "lobby", "path": .string("#\(instance.intValue ?? 0)/name"), "value": .string(op)])
                guard named else { continue }
                if try await command(client, op + "/append", ["type": "listAppend", "target": "lobby", "path": "players", "instance": instance]) {
                    done.withLock { $0.append(op) }
                }
            } catch {
                return
            }
        }
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
        guard let schema else { return }
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
        guard let schema, var replica else { return }
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

    /// Connects once more, resumes, applies batches up to `seq`, and returns the replica's digest.
    func finalDigest(waitingFor seq: Int) async throws -> String? {
        let client = try TestClient(url: url)
        defer { client.close() }
        _ = try await client.request(["type": "hello", "protocol": [1]])
        if let replica, let epoch {
            try start(from: try await client.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": .string(epoch), "seq": .number(Double(replica.seq))],
            ]))
        } else {
            try start(from: try await client.request(["type": "subscribe", "target": "lobby"]))
        }
        while (replica?.seq ?? 0) < UInt64(seq) {
            try apply(try await client.nextBatch("lobby"))
        }
        return replica?.digest
    }
}
