import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncRedis
import RiveSyncTestSupport
import Testing

/// A running state machine through a real `rivesyncd` (PROTOCOL.md §8, §18, §19): paths to
/// names with a `/`, an auto target ticking while it runs then sleeping, and a new auto state
/// machine ticking out of its entry state (the whole daemon in-process, on its manual clock),
/// manual advances with elapsed seconds on real `.riv` files, and the same states after a
/// restart (the journal records each advance's seconds).
@Suite(.serialized) struct StateMachineDaemonTests {
    static let riv = DaemonProcess.packageRoot + "/../shared/fixtures/riv/"

    /// The `.riv` files these tests load, as configuration `files` entries; a missing file
    /// fails the daemon's start (and the test).
    static func files(_ names: [(String, String)]) -> JSONValue {
        .array(names.map { ["name": .string($0.0), "path": .string(riv + $0.1)] })
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-sm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A view model whose property names hold a `/` and a `~` (Rive allows both; no fixture
    /// `.riv` has one, so a schema file stands in, read by the same model).
    static let escapeSchema = """
        {"rivesyncSchema": 1,
         "viewModels": [{"name": "Panel", "properties": [{"name": "BG On/Off", "type": "boolean"}, {"name": "a~b", "type": "number"}]}],
         "artboards": [{"name": "Main", "viewModel": "Panel", "stateMachines": ["sm"]}]}
        """

    @Test func namesWithASlashAreAddressedEscaped() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(Self.escapeSchema.utf8).write(to: URL(fileURLWithPath: directory + "/panel.schema.json"))
        let config: JSONValue = [
            "files": [["name": "panel", "path": .string(directory + "/panel.schema.json")]],
            "stateMachines": [["name": "panel", "file": "panel", "artboard": "Main"]], "auth": ["allowAnonymous": "loopback"],
        ]
        try Data(config.serialized()).write(to: URL(fileURLWithPath: directory + "/config.json"))
        try await withInProcessDaemon(["--config", directory + "/config.json"]) { daemon in
            let client = try await daemon.connected()
            let watcher = try await daemon.connected()
            let snapshot = try await watcher.request(["type": "subscribe", "target": "panel", "paths": ["BG On~1Off"]])
            #expect(snapshot["values"]?["BG On~1Off"] == false, "\(snapshot.jsonText)")
            let set = try await client.request(["type": "set", "target": "panel", "path": "BG On~1Off", "value": true])
            #expect(set["type"] == "ack", "\(set.jsonText)")
            let batch = try await watcher.nextBatch("panel")
            let effect = batch["effects"]?.arrayValue?.first
            #expect(effect?["paths"] == ["BG On~1Off"], "\(batch.jsonText)")
            #expect(effect?["property"] == "BG On/Off", "an effect names the property as Rive does")
            let value = try await client.request(["type": "get", "target": "panel", "path": "BG On~1Off"])
            #expect(value["value"] == true && value["path"] == "BG On~1Off", "\(value.jsonText)")
            let tilde = try await client.request(["type": "set", "target": "panel", "path": "a~0b", "value": 2])
            #expect(tilde["type"] == "ack", "\(tilde.jsonText)")
            let unescaped = try await client.request(["type": "get", "target": "panel", "path": "BG On/Off"])
            #expect(unescaped["code"] == "no_such_property", "'/' separates: \(unescaped.jsonText)")
            let stray = try await client.request(["type": "get", "target": "panel", "path": "a~b"])
            #expect(stray["code"] == "invalid_path", "\(stray.jsonText)")
        }
    }

    /// What one target showed after each advance of a scenario: seq, digest, layer states.
    struct Observed: Equatable, CustomStringConvertible {
        var seq: Int
        var digest: String
        var layers: String
        var description: String { "seq \(seq) \(digest.prefix(12)) \(layers)" }
    }

    static func observe(_ client: TestClient, _ target: String) async throws -> Observed {
        let digest = try await client.request(["type": "digest", "target": .string(target)])
        let listed = try await client.request(["type": "listTargets"])
        let entry = listed["targets"]?.arrayValue?.first { $0["name"]?.stringValue == target }
        return Observed(
            seq: digest["seq"]?.intValue ?? -1, digest: digest["digest"]?.stringValue ?? "",
            layers: entry?["layers"]?.jsonText ?? "none")
    }

    /// The timed scenario: `triggers_by_events`' steps on data_binding_test_triggers.riv (a
    /// nested timeline event at 0.7 s fires a trigger a transition consumes) and
    /// `viewmodel_list_trigger`'s on viewmodel_list_trigger.riv (a list item's trigger steps a
    /// colour state machine), each a manual target advanced with elapsed seconds.
    static let scenarioFiles = files([("triggers", "data_binding_test_triggers.riv"), ("lists", "viewmodel_list_trigger.riv")])

    static func createTargets(_ client: TestClient) async throws {
        let root = try await client.request(["type": "createInstance", "file": "triggers", "source": ["blank": ["viewModel": "vm_root"]]])
        let rootMachine = try await client.request([
            "type": "createStateMachine", "file": "triggers", "name": "root", "artboard": "root", "main": root["instance"] ?? .null,
            "mode": "manual",
        ])
        #expect(rootMachine["type"] == "target", "\(rootMachine.jsonText)")
        let lists = try await client.request([
            "type": "createStateMachine", "file": "lists", "name": "lists", "artboard": "main", "mode": "manual",
        ])
        #expect(lists["type"] == "target", "\(lists.jsonText)")
    }

    /// Runs the scenario's advances through `clients` in turn (one node each in a cluster);
    /// returns what each target showed after each advance, as the advancing node sees it (it
    /// has applied its advance when it answers).
    static func runScenario(_ clients: [TestClient]) async throws -> [Observed] {
        var observed: [Observed] = []
        for (index, elapsed) in [0.0, 0.7, 0.1, 0.016, 0.5, 1.0].enumerated() {
            let client = clients[index % clients.count]
            let advanced = try await client.request(["type": "advance", "target": "root", "elapsed": .number(elapsed)])
            #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
            observed.append(try await Self.observe(client, "root"))
        }
        for (index, elapsed) in [0.1, 0.064, 0.064, 0.064, 0.5].enumerated() {
            let client = clients[index % clients.count]
            if index > 0 {
                // A fire is acked by the advance that applies it: sent first, answered after.
                client.send(["type": "fire", "id": .number(Double(90 + index)), "target": "lists", "path": "lis/0/tri"])
            }
            let advanced = try await client.request(["type": "advance", "target": "lists", "elapsed": .number(elapsed)])
            #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
            if index > 0 {
                let ack = try await client.next(where: { $0["id"]?.intValue == 90 + index }, what: "the fire's ack")
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
            }
            observed.append(try await Self.observe(client, "lists"))
        }
        return observed
    }

    /// A restart replays the journal, each advance with its recorded seconds: the same seqs,
    /// digests and layer states as before it.
    @Test func aRestartedDaemonReachesTheSameStatesAfterTimedAdvances() async throws {
        let journaled = try JournaledConfiguration(files: Self.scenarioFiles)
        defer { journaled.remove() }
        let daemon = try await DaemonProcess.start(["--config", journaled.path])
        let client = try await TestClient.connected(to: daemon)
        try await Self.createTargets(client)
        let observed = try await Self.runScenario([client])
        let before = [try await Self.observe(client, "root"), try await Self.observe(client, "lists")]
        #expect(await daemon.stopped() == 0)
        #expect(
            try journaled.journals().contains { $0.contains(#""elapsed":0.064"#) }, "the fires' advances are journaled with their seconds")
        try await withDaemon(["--config", journaled.path]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let after = [try await Self.observe(again, "root"), try await Self.observe(again, "lists")]
            #expect(after == before, "scenario: \(observed)\n\(daemon.stderr)")
        }
    }

    /// A restart from a compacted journal (the snapshot holds each state machine's own state:
    /// its layers' states, times, …) reaches the same seqs, digests and layer states.
    @Test func aRestartFromASnapshotKeepsTheStateMachinesState() async throws {
        let journaled = try JournaledConfiguration(files: Self.scenarioFiles, settings: [("snapshotEvery", 10)])
        defer { journaled.remove() }
        let daemon = try await DaemonProcess.start(["--config", journaled.path])
        let client = try await TestClient.connected(to: daemon)
        try await Self.createTargets(client)
        _ = try await Self.runScenario([client])
        // Enough records for a compaction of each file (every 10), then some after it.
        for round in 0..<12 {
            for (target, path) in [("root", "trigger"), ("lists", "lis/0/tri")] {
                client.send(["type": "fire", "id": .number(Double(500 + round)), "target": .string(target), "path": .string(path)])
                let advanced = try await client.request(["type": "advance", "target": .string(target), "elapsed": 0.05])
                #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
                _ = try await client.next(where: { $0["id"]?.intValue == 500 + round }, what: "the fire's ack")
            }
        }
        let before = [try await Self.observe(client, "root"), try await Self.observe(client, "lists")]
        #expect(await daemon.stopped() == 0)
        let files = journaled.state + "/files"
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: files).filter { name in
            FileManager.default.fileExists(atPath: files + "/" + name + "/snapshot.json")
        }
        #expect(snapshots.count == 2, "both files were compacted: \(snapshots)")
        try await withDaemon(["--config", journaled.path]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            let after = [try await Self.observe(again, "root"), try await Self.observe(again, "lists")]
            #expect(after == before, "\(daemon.stderr)")
        }
    }

    /// Three nodes of a cluster, each advancing the targets in turn with its own seconds: every
    /// node applies the same records, each with the seconds its proposer decided, and shows the
    /// same seqs, digests and layer states; a single daemon running the same scenario does too.
    @Test func threeClusterNodesReachTheSameStatesAfterTimedAdvances() async throws {
        let single: [Observed] = try await withDaemon([
            "--config",
            try DaemonProcess.writeConfiguration(
                JSONValue.object([("files", Self.scenarioFiles), ("auth", ["allowAnonymous": "loopback"])]).jsonText),
        ]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            try await Self.createTargets(client)
            return try await Self.runScenario([client])
        }
        try await stopping(
            try await ClusterNodes.start(
                count: 3, leaseMilliseconds: ClusterNodes.longLeaseMilliseconds,
                settings: [("files", Self.scenarioFiles), ("instances", []), ("stateMachines", [])])
        ) { cluster in
            var clients: [TestClient] = []
            for index in 0..<3 { clients.append(try await TestClient.connected(to: cluster.node(index))) }
            try await Self.createTargets(clients[0])
            for index in 1..<3 {
                try await waitUntil("node \(index) to know 'lists'") {
                    try await clients[index].request(["type": "digest", "target": "lists"])["type"] == "digest"
                }
            }
            let observed = try await Self.runScenario(clients)
            #expect(observed.map(\.digest) == single.map(\.digest), "the cluster computes what one daemon does\n\(cluster.logs)")
            #expect(observed.map(\.layers) == single.map(\.layers))
            for target in ["root", "lists"] {
                let seq = try await Self.observe(clients[0], target).seq
                let digests = [
                    try await cluster.digest(of: target, at: seq, on: 0), try await cluster.digest(of: target, at: seq, on: 1),
                    try await cluster.digest(of: target, at: seq, on: 2),
                ]
                #expect(Set(digests).count == 1, "\(target) at \(seq): \(digests)")
                let layers = [try await Self.observe(clients[1], target).layers, try await Self.observe(clients[2], target).layers]
                #expect(layers.allSatisfy { $0 == layers[0] }, "\(target): \(layers)")
            }
        }
    }

    /// An auto target runs its state machine in real time while it is not settled, and stops:
    /// interpolate_to_end.riv's interpolator converter takes about a second to settle after
    /// `num` := 1000 (Rive's `advanceAndApply` keeps returning true meanwhile). Its batches come
    /// at most `rate` a second, each with the seconds it ran; the last has no `settled`; then
    /// nothing comes (no batch, and the core schedules no timer: WorkerTimeTests). The advance
    /// that settles it has a batch even when it changed nothing else (PROTOCOL.md §19).
    @Test func anAutoTargetTicksWhileItsStateMachineRunsThenSleeps() async throws {
        let config = JSONValue.object([
            ("files", Self.files([("interp", "interpolate_to_end.riv")])), ("auth", ["allowAnonymous": "loopback"]),
        ])
        try await withInProcessDaemon(["--config", try DaemonProcess.writeConfiguration(config.jsonText)]) { daemon in
            let client = try await daemon.connected()
            let created = try await client.request([
                "type": "createStateMachine", "file": "interp", "name": "interp", "artboard": "child", "rate": 20,
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            try await waitUntil("the new state machine to settle") {
                daemon.clock.fireNext()  // its next tick
                let listed = try await client.request(["type": "listTargets"])
                return listed["targets"]?.arrayValue?.first { $0["name"] == "interp" }?["settled"] == true
            }
            let snapshot = try await client.request(["type": "subscribe", "target": "interp"])
            #expect(snapshot["type"] == "snapshot")
            let set = try await client.request(["type": "set", "target": "interp", "path": "num", "value": 1000])
            #expect(set["type"] == "ack", "\(set.jsonText)")
            var batches: [JSONValue] = []
            while batches.last.map({ $0["settled"] == false }) ?? true {
                batches.append(try await client.nextBatch("interp"))
                guard batches.count < 200 else { break }
            }
            let ticks = batches.dropFirst()
            #expect(!ticks.isEmpty, "the state machine ran on after the write: \(batches.map(\.jsonText))")
            let seconds = ticks.map { $0["elapsed"]?.numberValue ?? 0 }
            #expect(seconds.allSatisfy { $0 > 0 && $0 < 1 }, "each tick ran the daemon's time since the last: \(seconds)")
            #expect(ticks.count <= 40, "at most 20 a second for about a second: \(ticks.count)")
            #expect(batches.last?["settled"] == nil, "the last batch is settled")
            daemon.clock.advance(seconds: 0.3)  // six intervals at rate 20: any tick would be due
            daemon.drain()
            let later = client.takeAll { $0["type"] == "batch" }
            #expect(later.isEmpty, "a settled target is not advanced: \(later.map(\.jsonText))")
            let listed = try await client.request(["type": "listTargets"])
            #expect(listed["targets"]?.arrayValue?.first { $0["name"] == "interp" }?["settled"] == true)
        }
    }

    /// A new auto state machine is not settled (it stands in its entry state): the daemon
    /// advances it by itself, with no command, out of the entry state, reports the layer's new
    /// state in the batch, and stops once it is settled.
    @Test func aNewAutoStateMachineLeavesItsEntryStateByItself() async throws {
        let config = JSONValue.object([
            ("files", Self.files([("triggers", "data_binding_test_triggers.riv")])), ("auth", ["allowAnonymous": "loopback"]),
        ])
        try await withInProcessDaemon(["--config", try DaemonProcess.writeConfiguration(config.jsonText)]) { daemon in
            let client = try await daemon.connected()
            let root = try await client.request([
                "type": "createInstance", "file": "triggers", "source": ["blank": ["viewModel": "vm_root"]],
            ])
            let created = try await client.request([
                "type": "createStateMachine", "file": "triggers", "name": "root", "artboard": "root", "main": root["instance"] ?? .null,
                "rate": 10,
            ])
            #expect(created["settled"] == false, "a new state machine stands in its entry state: \(created.jsonText)")
            #expect(created["layers"]?.arrayValue?.first?["kind"] == "entry", "\(created.jsonText)")
            var listed: JSONValue = .null
            try await waitUntil("the state machine to leave its entry state and settle") {
                daemon.clock.fireNext()  // its next tick
                listed = try await client.request(["type": "listTargets"])["targets"]?.arrayValue?.first ?? .null
                return listed["settled"] == true
            }
            #expect((listed["seq"]?.intValue ?? 0) >= 1, "it advanced with no command: \(listed.jsonText)")
            #expect(listed["layers"]?.arrayValue?.first?["kind"] == "animation", "\(listed.jsonText)")
            let snapshot = try await client.request(["type": "subscribe", "target": "root"])
            #expect(snapshot["seq"] == listed["seq"])
            daemon.clock.advance(seconds: 0.3)  // three intervals at rate 10: any tick would be due
            daemon.drain()
            let later = client.takeAll { $0["type"] == "batch" }
            #expect(later.isEmpty, "a settled target is not advanced: \(later.map(\.jsonText))")
            let digest = try await client.request(["type": "digest", "target": "root"])
            #expect(digest["seq"] == listed["seq"], "no advance since it settled")
        }
    }

    /// A running state machine on a cluster is ticked by one node, not by each: an auto target
    /// (10 advances a second) on viewmodel_list_trigger.riv plays a timeline after it is made,
    /// and again after its list item's trigger fires through another node. In the cluster's
    /// log, every tick (an advance with no command) comes from the node whose advance came last
    /// (the creating node, then the firing node; one tick in flight may cross a hand-over),
    /// ticks come at most about 10 a second, and their seconds add up to the log's own time
    /// (three nodes each ticking would make three times as many, running three times the
    /// time). Every node then shows the same digest.
    @Test func aClusterTicksARunningStateMachineOnce() async throws {
        let files = Self.files([("lists", "viewmodel_list_trigger.riv")])
        try await withThreeClusterNodes(files: files) { cluster, clients in
            let created = try await clients[0].request([
                "type": "createStateMachine", "file": "lists", "name": "lists", "artboard": "main", "rate": 10,
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            try await Task.sleep(nanoseconds: 1_500_000_000)
            let fired = try await clients[1].request(["type": "fire", "target": "lists", "path": "lis/0/tri"])
            #expect(fired["type"] == "ack", "\(fired.jsonText)")
            try await Task.sleep(nanoseconds: 1_500_000_000)

            let advances = try Self.advanceEntries(of: "lists", in: try cluster.redisConnection())
            let described = advances.map { "\($0.node) \($0.milliseconds) \($0.commands) \($0.elapsed)" }.joined(separator: "\n")
            let ticks = advances.enumerated().filter { $0.element.commands == 0 }
            #expect(ticks.count >= 3, "the running state machine was ticked:\n\(described)")
            #expect(Set(advances.map(\.node)).count == 2, "the creating node and the firing node advanced it:\n\(described)")
            var crossings = 0
            for (index, tick) in ticks where index > 0 && tick.node != advances[index - 1].node { crossings += 1 }
            #expect(crossings <= 1, "each tick comes from the node of the advance before it:\n\(described)")
            let span = Double((advances.last?.milliseconds ?? 0) - (advances.first?.milliseconds ?? 0)) / 1000
            let seconds = advances.reduce(0.0) { $0 + $1.elapsed }
            #expect(Double(ticks.count) <= span * 10 + 3, "at most 10 ticks a second: \(ticks.count) in \(span) s")
            #expect(seconds <= span + 0.5, "\(seconds) s of state machine time in \(span) s of log")
            let digests = [
                try await cluster.digest(of: "lists", at: 0, on: 0, latest: true),
                try await cluster.digest(of: "lists", at: 0, on: 1, latest: true),
                try await cluster.digest(of: "lists", at: 0, on: 2, latest: true),
            ]
            #expect(Set(digests).count == 1, "\(digests)")
            let deleted = try await clients[0].request(["type": "deleteTarget", "target": "lists"])
            #expect(deleted["type"] == "targetDeleted", "\(deleted.jsonText)")
        }
    }

    /// One advance record of the cluster's log: who proposed it, when (the entry id's
    /// milliseconds), how many commands it applied and its seconds.
    struct AdvanceEntry {
        var node: String
        var milliseconds: Int
        var commands: Int
        var elapsed: Double
    }

    /// The advance records of `target` in the cluster's log (`rivesync:log`), in log order.
    static func advanceEntries(of target: String, in redis: RedisConnection) throws -> [AdvanceEntry] {
        var advances: [AdvanceEntry] = []
        for entry in try redis.command(["XRANGE", "rivesync:log", "-", "+"]).array() ?? [] {
            let parts = try entry.array() ?? []
            guard let id = try parts.first?.string(), let fields = try parts.last?.array() else { continue }
            var values: [String: [UInt8]] = [:]
            var index = 0
            while index + 1 < fields.count {
                if let name = try fields[index].string(), let value = try fields[index + 1].bytes() { values[name] = value }
                index += 2
            }
            guard let body = values["b"], let node = values["n"] else { continue }
            let record = try JSONParser().parse(body)
            guard record["t"] == "advance", record["target"]?.stringValue == target else { continue }
            advances.append(
                AdvanceEntry(
                    node: String(decoding: node, as: UTF8.self), milliseconds: Int(id.split(separator: "-").first ?? "") ?? 0,
                    commands: record["commands"]?.arrayValue?.count ?? 0, elapsed: record["elapsed"]?.numberValue ?? 0))
        }
        return advances
    }
}
