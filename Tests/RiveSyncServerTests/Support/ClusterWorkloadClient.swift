import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import RiveSyncTransport

/// A client of the cluster workload: one connection per session, each session on another node
/// than the last, subscribed to `lobby` with its cursor; a replica of `lobby` and a history for
/// `HistoryChecker`.
final class ClusterWorkloadClient: @unchecked Sendable {
    /// What the client sends.
    enum Workload {
        /// Random sets, fires, list edits and binds.
        case mixed
        /// Players named after the operation, appended to `lobby.players` (never removed), so
        /// every acked one must be in the list once at the end (`ackedNames`).
        case namedAppends
    }

    let name: String
    let urls: [String]
    let history: Locked<HistoryChecker>
    let workload: Workload
    /// Whether a session that fails (its node killed, Redis gone) is followed by the next one,
    /// instead of failing the test.
    let toleratesFailures: Bool
    /// Names of the players whose append was acked (`namedAppends`).
    private(set) var ackedNames: [String] = []
    /// Error replies by code.
    private(set) var errors: [String: Int] = [:]
    private var node: Int
    private var epoch: String?
    private var replica: Replica?
    private var schema: FileSchema?
    private var operation = 0
    private var random: UInt64
    /// Sessions run, and those that resumed from the cursor (on another node than the last).
    private(set) var sessions = 0
    private(set) var resumes = 0

    init(
        name: String, urls: [String], first: Int, history: Locked<HistoryChecker>, workload: Workload = .mixed,
        toleratesFailures: Bool = false
    ) {
        self.workload = workload
        self.toleratesFailures = toleratesFailures
        self.name = name
        self.urls = urls
        self.node = first
        self.history = history
        random = UInt64(abs(name.hashValue)) | 1
    }

    private func next(_ bound: Int) -> Int {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((random >> 33) % UInt64(bound))
    }

    /// Runs sessions until `operations` operations were done, or `keepGoing` says stop.
    func run(operations: Int = .max, keepGoing: @escaping @Sendable () -> Bool = { true }) async throws {
        while operation < operations, keepGoing() {
            do { try await session(until: operations, keepGoing: keepGoing) } catch {
                guard toleratesFailures else { throw error }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            node = (node + 1 + next(urls.count - 1)) % urls.count
        }
    }

    private func session(until operations: Int, keepGoing: @Sendable () -> Bool) async throws {
        sessions += 1
        let client = try TestClient(url: urls[node])
        defer { client.close() }
        let welcome = try await client.request(["type": "hello", "protocol": [1]])
        guard welcome["type"] == "welcome" else { throw TestClient.Timeout(what: "welcome, got \(welcome.jsonText)") }
        if let epoch, welcome["epoch"]?.stringValue != epoch { throw TestClient.Timeout(what: "the same epoch on every node") }
        epoch = welcome["epoch"]?.stringValue
        if schema == nil {
            schema = try FileSchema(json: try await client.request(["type": "describe", "file": "demo"])["schema"] ?? .null)
        }
        try await subscribe(client)
        for _ in 0..<(2 + next(10)) where operation < operations && keepGoing() {
            operation += 1
            let op = "\(name)-\(operation)"
            switch workload {
            case .mixed: try await command(client, op, try await randomRequest(client))
            case .namedAppends: try await appendNamedPlayer(client, op)
            }
        }
    }

    /// Creates a player named `op`, names it, appends it; its name is kept once the append is acked.
    private func appendNamedPlayer(_ client: TestClient, _ op: String) async throws {
        let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
        try drainBatches(client)
        guard let instance = created["instance"]?.intValue else {
            errors[created["code"]?.stringValue ?? "?", default: 0] += 1
            return
        }
        let path = JSONValue.string("#\(instance)/name")
        guard try await command(client, op + "/name", ["type": "set", "target": "lobby", "path": path, "value": .string(op)]) else {
            return
        }
        let request: JSONValue = ["type": "listAppend", "target": "lobby", "path": "players", "instance": .number(Double(instance))]
        if try await command(client, op + "/append", request) { ackedNames.append(op) }
    }

    private func subscribe(_ client: TestClient, counts: Bool = true) async throws {
        var request: [(String, JSONValue)] = [("type", "subscribe"), ("target", "lobby")]
        if let replica, let epoch { request.append(("cursor", ["epoch": .string(epoch), "seq": .number(Double(replica.seq))])) }
        let reply = try await client.request(.object(request))
        guard let schema else { return }
        if reply["type"] == "snapshot" {
            replica = Replica(snapshot: try StateCodec.decodeSnapshot(reply, target: "lobby", schema: schema))
        } else if reply["resumed"] == true {
            if counts { resumes += 1 }
        } else {
            throw TestClient.Timeout(what: "a snapshot or a resume, got \(reply.jsonText)")
        }
        record(["kind": "start", "seq": reply["seq"] ?? .null])
    }

    private func randomRequest(_ client: TestClient) async throws -> JSONValue {
        let players = replica.flatMap { replica in replica.instance(in: .main).flatMap { replica.store[$0]?.values["players"] } }
        let count: Int
        if case .list(let items)? = players { count = items.count } else { count = 0 }
        let index = JSONValue.number(Double(next(max(count, 1))))
        switch next(8) {
        case 0: return ["type": "set", "target": "lobby", "path": "title", "value": .string("\(name)-\(operation)")]
        case 1:
            return [
                "type": "set", "target": "lobby", "path": .string("players/\(next(max(count, 1)))/x"), "value": .number(Double(next(100))),
            ]
        case 2: return ["type": "fire", "target": "lobby", "path": .string("players/\(next(max(count, 1)))/wave")]
        case 3 where count < 12:
            let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            try drainBatches(client)
            return ["type": "listAppend", "target": "lobby", "path": "players", "instance": created["instance"] ?? .null]
        case 4: return ["type": "listRemoveAt", "target": "lobby", "path": "players", "index": index]
        case 5:
            return ["type": "listSwap", "target": "lobby", "path": "players", "index": index, "with": .number(Double(next(max(count, 1))))]
        case 6:
            let theme = try await client.request([
                "type": "createInstance", "file": "demo", "source": ["name": next(2) == 0 ? "Dark" : "Light", "viewModel": "Theme"],
            ])
            try drainBatches(client)
            return ["type": "bind", "target": "lobby", "globals": [["name": "Theme", "instance": theme["instance"] ?? .null]]]
        default:
            return [
                "type": "set", "target": "lobby", "path": "@Theme/background", "value": .string(String(format: "#FF%06X", next(0xFFFFFF))),
            ]
        }
    }

    /// Sends one command; records invoke and ok / fail (an error reply) / info (no reply).
    /// True when acked.
    @discardableResult
    private func command(_ client: TestClient, _ op: String, _ request: JSONValue) async throws -> Bool {
        record(["kind": "invoke", "op": .string(op)])
        let reply: JSONValue
        do { reply = try await client.request(request) } catch {
            record(["kind": "info", "op": .string(op)])
            throw error
        }
        try drainBatches(client)
        if reply["type"] == "ack" {
            record(["kind": "ok", "op": .string(op), "command": reply["command"] ?? .null, "seq": reply["seq"] ?? .null])
            return true
        }
        guard reply["type"] == "error" else { throw TestClient.Timeout(what: "ack or error, got \(reply.jsonText)") }
        record(["kind": "fail", "op": .string(op)])
        errors[reply["code"]?.stringValue ?? "?", default: 0] += 1
        return false
    }

    private func drainBatches(_ client: TestClient) throws {
        for batch in client.takeAll(where: { $0["type"] == "batch" && $0["target"] == "lobby" }) { try apply(batch) }
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

    /// One more session on the next node: resumes, applies batches up to `seq`, and returns
    /// the replica's digest.
    func finalDigest(at seq: Int) async throws -> String? {
        node = (node + 1) % urls.count
        let client = try TestClient(url: urls[node])
        defer { client.close() }
        _ = try await client.request(["type": "hello", "protocol": [1]])
        try await subscribe(client, counts: false)
        while (replica?.seq ?? 0) < UInt64(seq) { try apply(try await client.nextBatch("lobby")) }
        return replica?.digest
    }
}
