import Foundation
import RiveSyncCore
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

@testable import RiveSyncServer

/// The workers' logic in-process, through the change-log seam and a recording transport:
/// a failed append, replay into a second daemon, and back-pressure.
@Suite struct InProcessWorkerTests {
    /// A demo daemon whose worker logs are kept (and can be made to fail).
    static func daemon(configuration: DaemonConfiguration = .demo()) throws -> (InProcessDaemon, MemoryChangeLog) {
        let log = MemoryChangeLog(retains: true)
        return (try InProcessDaemon(configuration: configuration, changeLogs: { _ in log }), log)
    }

    static func greeted(_ daemon: InProcessDaemon) async throws -> InProcessClient {
        let client = daemon.connect()
        let welcome = try await client.request(["type": "hello", "protocol": [1]])
        try #require(welcome["type"] == "welcome", "\(welcome.jsonText)")
        return client
    }

    @Test func aFailedAppendAnswersStorageFailedAndAppliesNothing() async throws {
        let (daemon, log) = try Self.daemon()
        let worker = daemon.daemon.workers[0]
        let client = try await Self.greeted(daemon)
        let before = try await client.request(["type": "get", "target": "character", "path": "mood"])
        worker.host.sync { log.failNext = LogFailure("disk full") }
        let refused = try await client.request(["type": "set", "target": "character", "path": "mood", "value": 7])
        #expect(refused["type"] == "error" && refused["code"] == "storage_failed", "\(refused.jsonText)")
        let after = try await client.request(["type": "get", "target": "character", "path": "mood"])
        #expect(after["value"] == before["value"] && after["seq"] == before["seq"], "nothing applied: \(after.jsonText)")
        let created = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
        #expect(created["type"] == "instance", "the log works again: \(created.jsonText)")
        worker.host.sync { log.failNext = LogFailure("disk full") }
        let refusedTarget = try await client.request([
            "type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby", "mode": "manual",
        ])
        #expect(refusedTarget["code"] == "storage_failed", "\(refusedTarget.jsonText)")
        let listed = try await client.request(["type": "listTargets"])
        let names = listed["targets"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(!names.contains("room"), "no target was made and its name is free: \(names)")
        let again = try await client.request([
            "type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby", "mode": "manual",
        ])
        #expect(again["type"] == "target", "\(again.jsonText)")
    }

    @Test func twoDaemonsFedTheSameCommittedRecordsAgree() async throws {
        let (first, log) = try Self.daemon()
        let client = try await Self.greeted(first)
        let room = try await client.request([
            "type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby", "mode": "manual",
        ])
        try #require(room["type"] == "target", "\(room.jsonText)")
        var players: [JSONValue] = []
        for _ in 0..<3 {
            let player = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
            players.append(try #require(player["instance"], "\(player.jsonText)"))
            client.send(["type": "listAppend", "target": "room", "path": "players", "instance": players.last!])
        }
        try await Self.advance("room", client, acks: 3)
        for (index, name) in ["ada", "bo", "cy"].enumerated() {
            client.send(["type": "set", "target": "room", "path": .string("players/\(index)/name"), "value": .string(name)])
        }
        client.send(["type": "listSwap", "target": "room", "path": "players", "index": 0, "with": 2])
        client.send(["type": "listRemoveAt", "target": "room", "path": "players", "index": 1])
        try await Self.advance("room", client, acks: 5)
        let mood = try await client.request(["type": "set", "target": "character", "path": "mood", "value": 3])
        try #require(mood["type"] == "ack", "\(mood.jsonText)")
        let mode = try await client.request(["type": "set", "target": "theme", "path": "mode", "value": "dark"])
        try #require(mode["type"] == "batch" || mode["type"] == "ack", "\(mode.jsonText)")
        let temporary = try await client.request(["type": "createStateMachine", "file": "demo", "name": "gone", "artboard": "Lobby"])
        try #require(temporary["type"] == "target")
        let deleted = try await client.request(["type": "deleteTarget", "target": "gone"])
        try #require(deleted["type"] == "targetDeleted", "\(deleted.jsonText)")

        // A second daemon with the same file and nothing else: every record, without a ticket.
        var bare = DaemonConfiguration.demo()
        bare.instances = []
        bare.stateMachines = []
        let second = try InProcessDaemon(configuration: bare)
        let records = first.daemon.workers[0].host.sync { log.records["demo"] ?? [] }
        #expect(records.count >= 10, "\(records.count) records")
        let replica = second.daemon.workers[0]
        let actions = replica.host.sync {
            records.flatMap { replica.core.handle(.committed(file: "demo", record: $0, ticket: nil, recordsSinceCompaction: 0)).actions }
        }
        #expect(!actions.contains { if case .retract = $0 { true } else { false } }, "every record applies")
        let original = first.daemon.workers[0]
        let state = original.host.sync { Self.state(of: original) }
        #expect(state.count == 5, "room, character, lobby, manual-target, theme: \(state.keys.sorted())")
        #expect(replica.host.sync { Self.state(of: replica) } == state)
    }

    /// Advances a manual target and takes the `advanced` reply and the acks of its commands.
    static func advance(_ target: String, _ client: InProcessClient, acks: Int) async throws {
        client.send(["type": "advance", "target": .string(target)])
        var replies: [JSONValue] = []
        for _ in 0..<(acks + 1) { replies.append(try await client.next(what: "an ack of the advance")) }
        #expect(replies.filter { $0["type"] == "ack" }.count == acks && replies.contains { $0["type"] == "advanced" }, "\(replies)")
    }

    struct TargetState: Equatable {
        var seq: UInt64
        var digest: String
        var history: [ChangeBatch]
    }

    /// A target's kept batches read back; a batch that does not read back fails the test.
    static func history(of name: String, _ record: WorkerCore.TargetRecord, in runtime: FileRuntime) -> [ChangeBatch] {
        do { return try record.batchHistory(of: name, in: runtime) } catch {
            Issue.record(error, "target \(name)")
            return []
        }
    }

    /// Every target's seq, digest and batch history.
    static func state(of worker: WorkerShell) -> [String: TargetState] {
        var result: [String: TargetState] = [:]
        for (name, record) in worker.targets {
            let runtime = worker.files[record.file]!
            result[name] = TargetState(
                seq: (try? runtime.target(name).seq) ?? 0, digest: (try? runtime.digest(of: name)) ?? "?",
                history: Self.history(of: name, record, in: runtime))
        }
        return result
    }

    /// The pacing of an auto target runs on the daemon's clock (here the test's): two sets in a
    /// row are two advances at least `1 / rate` apart on that clock, whatever the wall clock
    /// did, and the replies are read as `ServerMessage` values.
    @Test func anAutoTargetsAdvancesAreARateApartOnTheDaemonsClock() async throws {
        let daemon = try InProcessDaemon()
        let client = try await daemon.connected()
        var acks: [(ack: ServerMessage.Ack, at: UInt64)] = []
        for mood in [1, 2] {
            let reply = try await client.reply(to: ["type": "set", "target": "character", "path": "mood", "value": .number(Double(mood))])
            guard case .ack(let ack, _) = reply else {
                Issue.record("set \(mood): \(reply)")
                return
            }
            acks.append((ack, daemon.clock.now()))
        }
        #expect(acks[1].ack.seq == acks[0].ack.seq + 1, "one advance each")
        let interval = UInt64(1e9 / 60)  // the demo's `character`: 60 advances a second
        #expect(acks[1].at - acks[0].at >= interval, "\(acks[1].at - acks[0].at) ns apart")
    }

    @Test func aSubscriberOverHalfItsQueueLagsAndCatchesUpOnceDrained() async throws {
        let daemon = try InProcessDaemon()
        let writer = try await Self.greeted(daemon)
        let fast = try await Self.greeted(daemon)
        let slow = try await Self.greeted(daemon)
        for reader in [fast, slow] {
            let snapshot = try await reader.request(["type": "subscribe", "target": "character"])
            try #require(snapshot["type"] == "snapshot", "\(snapshot.jsonText)")
        }
        let maxSendQueueBytes = daemon.daemon.context.limits.withLock { $0.maxSendQueueBytes }
        daemon.outlet.setQueued(maxSendQueueBytes / 2 + 1, for: slow.session)
        let ack = try await writer.request(["type": "set", "target": "character", "path": "mood", "value": 4])
        try #require(ack["type"] == "ack", "\(ack.jsonText)")
        let batch = try await fast.next(what: "the fast subscriber's batch")
        #expect(batch["type"] == "batch" && batch["seq"] == ack["seq"])
        let second = try await writer.request(["type": "set", "target": "character", "path": "mood", "value": 5])
        try #require(second["type"] == "ack")
        #expect(try await fast.next(what: "the second batch")["seq"] == second["seq"])
        #expect(daemon.outlet.take(slow.session) == nil, "the lagging subscriber got no batch")
        daemon.outlet.setQueued(maxSendQueueBytes / 8, for: slow.session)
        let catchUp = try await slow.next(what: "the catch-up snapshot")
        #expect(catchUp["type"] == "snapshot" && catchUp["reason"] == "catchUp" && catchUp["seq"] == second["seq"], "\(catchUp.jsonText)")
        let third = try await writer.request(["type": "set", "target": "character", "path": "mood", "value": 6])
        #expect(try await slow.next(what: "batches again")["seq"] == third["seq"])
    }
}
