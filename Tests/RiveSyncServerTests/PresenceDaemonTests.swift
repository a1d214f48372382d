import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Presence (PROTOCOL.md §15): members in a subscriber's snapshot and changes in order among
/// the batches, every limit's typed error, a reader without `seePresence`, coalescing under a
/// burst, and a dropped client's member leaving after the grace period and a resume within it
/// (the whole daemon in-process, on its clock); through the real daemon, nothing of it in the
/// journal across a restart.
@Suite(.serialized) struct PresenceDaemonTests {
    static let memberToken = "presence-member-token-0001"
    static let readerToken = "presence-reader-token-0001"
    static let tokens: JSONValue = [
        "tokens": [
            [
                "name": "member", "token": .string(memberToken),
                "scopes": [["allow": ["read", "write", "fire", "seePresence", "publishPresence"], "target": "*"], ["allow": ["create"]]],
            ],
            ["name": "reader", "token": .string(readerToken), "scopes": [["allow": ["read"], "target": "*"]]],
        ]
    ]

    /// The configuration: the demo file (targets `theme`, `character`, `lobby`), the tokens
    /// file at `tokensFile`, `limits`.
    static func configuration(limits: JSONValue, tokensFile: String) -> [(String, JSONValue)] {
        [
            ("files", [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]]),
            ("instances", [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]]),
            (
                "stateMachines",
                [
                    ["name": "character", "file": "demo", "artboard": "Character", "globals": ["Theme": "theme"]],
                    ["name": "lobby", "file": "demo", "artboard": "Lobby", "globals": ["Theme": "theme"]],
                ]
            ),
            ("auth", ["tokensFile": .string(tokensFile)]), ("limits", limits),
        ]
    }

    /// A daemon of the demo file with the tokens above, `limits`, and a state directory when
    /// `state` is given.
    static func start(limits: JSONValue = [:], state: String? = nil) async throws -> (DaemonProcess, String) {
        let directory = try state ?? PersistenceTests.temporaryDirectory()
        try Data(tokens.serialized()).write(to: URL(fileURLWithPath: directory + "/tokens.json"))
        var config = configuration(limits: limits, tokensFile: directory + "/tokens.json")
        if state != nil {
            try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
            config.append(("stateDirectory", .string(directory + "/state")))
        }
        let path = directory + "/config.json"
        try Data(JSONValue.object(config).serialized()).write(to: URL(fileURLWithPath: path))
        return (try await DaemonProcess.start(["--config", path]), directory)
    }

    /// The same daemon in this process (no state directory): for the tests that need no
    /// socket and no restart.
    static func startInProcess(limits: JSONValue = [:]) throws -> InProcessDaemon {
        try InProcessDaemon(config: .object(configuration(limits: limits, tokensFile: "tokens.json")), tokens: tokens)
    }

    static func connect(_ daemon: InProcessDaemon, token: String = memberToken) async throws -> InProcessClient {
        try await daemon.connected(token: token)
    }

    static func connect(_ daemon: DaemonProcess, token: String = memberToken) async throws -> TestClient {
        let client = try TestClient(url: daemon.url)
        let welcome = try await client.request(["type": "hello", "protocol": [1], "token": .string(token)])
        guard welcome["type"] == "welcome" else { throw TestClient.Timeout(what: "welcome, got \(welcome.jsonText)") }
        return client
    }

    static func join(_ target: String, key: String, _ state: JSONValue) -> JSONValue {
        ["type": "presenceJoin", "target": .string(target), "key": .string(key), "state": state]
    }

    static func update(_ target: String, _ state: JSONValue) -> JSONValue {
        ["type": "presenceUpdate", "target": .string(target), "state": state]
    }

    /// The next presence message of `client` with a change of `member`.
    static func change(of member: JSONValue, _ client: some RequestingClient, what: String) async throws -> JSONValue {
        let message = try await client.next(
            where: { $0["type"] == "presence" && $0["changes"]?.arrayValue?.contains { $0["member"] == member } == true }, what: what,
            seconds: defaultWaitSeconds)
        return try #require(message["changes"]?.arrayValue?.first { $0["member"] == member })
    }

    /// Every presence message among `messages` comes after the batch its seq names and before
    /// the next: checked against the batches around it (the snapshot's seq to start).
    static func presenceIsPlacedBySeq(_ messages: [JSONValue], from seq: Int) -> Bool {
        var last = seq
        for message in messages {
            if message["type"] == "batch", let batchSeq = message["seq"]?.intValue { last = batchSeq }
            if message["type"] == "presence", message["seq"]?.intValue != last { return false }
        }
        return true
    }

    @Test func aThirdClientSeesBothMembersInItsSnapshotThenTheirUpdatesInOrder() async throws {
        let daemon = try Self.startInProcess()
        do {
            let ana = try await Self.connect(daemon)
            let bo = try await Self.connect(daemon)
            let watcher = try await Self.connect(daemon)
            _ = try await watcher.request(["type": "subscribe", "target": "lobby"])
            let anaJoined = try await ana.request(Self.join("lobby", key: "ana-key-0123456789", ["name": "Ana"]))
            let boJoined = try await bo.request(Self.join("lobby", key: "bo-key-0123456789ab", ["name": "Bo"]))
            let anaMember = try #require(anaJoined["member"])
            let boMember = try #require(boJoined["member"])
            #expect(anaJoined["type"] == "presenceJoined" && anaJoined["resumed"] == false && anaMember != boMember)
            _ = try await Self.change(of: boMember, watcher, what: "Bo's join reaching the subscribers")

            let third = try await Self.connect(daemon)
            let snapshot = try await third.request(["type": "subscribe", "target": "lobby"])
            #expect(
                snapshot["presence"] == [["member": anaMember, "state": ["name": "Ana"]], ["member": boMember, "state": ["name": "Bo"]]],
                "\(snapshot["presence"]?.jsonText ?? "no presence")")
            let steps: [(InProcessClient, JSONValue, JSONValue)] = [
                (ana, anaMember, ["name": "Ana", "cursor": [1, 1]]), (bo, boMember, ["name": "Bo", "cursor": [2, 2]]),
                (ana, anaMember, ["name": "Ana", "cursor": [3, 3]]), (bo, boMember, ["name": "Bo", "selection": ["mood"]]),
            ]
            for (step, (client, member, state)) in steps.enumerated() {
                #expect(try await client.request(Self.update("lobby", state))["type"] == "presenceUpdated")
                if step == 1 { _ = try await ana.request(["type": "set", "target": "lobby", "path": "title", "value": "in between"]) }
                let change = try await Self.change(of: member, third, what: "update \(step)")
                #expect(change == ["op": "update", "member": member, "state": state], "\(change.jsonText)")
            }
            let listed = try await third.request(["type": "presenceList", "target": "lobby"])
            #expect(listed["members"]?.arrayValue?.map { $0["member"] } == [anaMember, boMember])
            let seen = watcher.takeAll { $0["type"] == "batch" || $0["type"] == "presence" }
            #expect(seen.contains { $0["type"] == "batch" }, "the set's batch is among them")
            #expect(Self.presenceIsPlacedBySeq(seen, from: 0), "\(seen.map(\.jsonText))")
        }
    }

    /// Two members whose connections end without a leave (the session closes under them, as a
    /// dropped socket's does): the one that joins again with its key within the grace period
    /// resumes; the other leaves once the grace period has passed on the daemon's clock.
    @Test func aKilledClientLeavesAfterTheGracePeriodAndOneThatResumesDoesNot() async throws {
        let daemon = try Self.startInProcess(limits: ["presenceGraceSeconds": 2])
        let watcher = try await Self.connect(daemon)
        _ = try await watcher.request(["type": "subscribe", "target": "character"])
        /// A client that joins with `key` and whose connection then ends.
        func joinAndDrop(key: String) async throws -> JSONValue {
            let client = try await Self.connect(daemon)
            let joined = try await client.request(Self.join("character", key: key, ["name": "raw"]))
            client.close()
            return joined
        }
        let killedJoin = try await joinAndDrop(key: "killed-key-0123456789")
        let resumingJoin = try await joinAndDrop(key: "resuming-key-01234567")
        let killed = try #require(killedJoin["member"])
        let resumingMember = try #require(resumingJoin["member"])
        #expect(killedJoin["resumed"] == false && resumingJoin["resumed"] == false, "two new members: \(resumingJoin.jsonText)")
        #expect(killed != resumingMember)
        let again = try await Self.connect(daemon)
        let resumed = try await again.request(Self.join("character", key: "resuming-key-01234567", ["name": "back"]))
        #expect(resumed["member"] == resumingMember && resumed["resumed"] == true, "\(resumed.jsonText)")

        let leave = try await watcher.next(
            where: { $0["changes"]?.arrayValue?.contains { $0["member"] == killed && $0["op"] == "leave" } == true },
            what: "the killed client's leave")
        #expect(leave["changes"]?.arrayValue?.contains(["op": "leave", "member": killed, "reason": "disconnected"]) == true)
        let members = try await watcher.request(["type": "presenceList", "target": "character"])["members"]
        #expect(members == [["member": resumingMember, "state": ["name": "back"]]], "\(members?.jsonText ?? "")")
        let presence = [leave] + watcher.buffered.filter { $0["type"] == "presence" }
        let resumedChanges = presence.compactMap { $0["changes"]?.arrayValue }.joined().filter { $0["member"] == resumingMember }
        #expect(!resumedChanges.contains { $0["op"] == "leave" }, "a resumed member never leaves: \(resumedChanges.map(\.jsonText))")
        #expect(resumedChanges.filter { $0["op"] == "join" }.count <= 1, "nor joins again: \(resumedChanges.map(\.jsonText))")
    }

    @Test func presenceIsNeverJournaledAndARestartStartsWithNoMembers() async throws {
        let directory = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = "presence-marker-7f3a"
        let first = try await Self.start(state: directory).0
        try await stopping(first) { daemon in
            let client = try await Self.connect(daemon)
            _ = try await client.request(Self.join("lobby", key: "journal-key-0123456789", ["name": .string(marker)]))
            _ = try await client.request(Self.update("lobby", ["name": .string(marker), "cursor": [4, 2]]))
            #expect(try await client.request(["type": "set", "target": "lobby", "path": "title", "value": "kept"])["type"] == "ack")
            #expect(await daemon.stopped() == 0)
        }

        let state = directory + "/state"
        let files = try #require(FileManager.default.enumerator(atPath: state)?.allObjects as? [String])
        var journaled = ""
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: state + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            journaled += String(decoding: try Data(contentsOf: URL(fileURLWithPath: state + "/" + file)), as: UTF8.self)
        }
        #expect(journaled.contains("kept"), "the set is in the journal")
        #expect(!journaled.contains(marker) && !journaled.contains("journal-key"), "no presence in \(files)")

        let restartedNode = try await Self.start(state: directory).0
        try await stopping(restartedNode) { daemon in
            let after = try await Self.connect(daemon)
            #expect(try await after.request(["type": "presenceList", "target": "lobby"])["members"] == [])
            #expect(try await after.request(["type": "get", "target": "lobby", "path": "title"])["value"] == "kept")
            #expect(try await after.request(["type": "subscribe", "target": "lobby"])["presence"] == [])
        }
    }

    @Test func eachLimitGivesItsTypedError() async throws {
        let daemon = try Self.startInProcess(limits: [
            "maxPresenceMembers": 2, "maxPresenceStateBytes": 64, "maxPresenceUpdatesPerSecond": 5,
        ])
        do {
            let first = try await Self.connect(daemon)
            let second = try await Self.connect(daemon)
            let third = try await Self.connect(daemon)
            let big: JSONValue = ["name": .string(String(repeating: "x", count: 80))]
            let tooBig = try await first.request(Self.join("lobby", key: "first-key-0123456789", big))
            #expect(tooBig["code"] == "limit_exceeded" && tooBig["details"]?["limit"] == "maxPresenceStateBytes", "\(tooBig.jsonText)")
            #expect(tooBig["details"]?["value"] == 64)
            let shortKey = try await first.request(Self.join("lobby", key: "short", [:]))
            #expect(shortKey["code"] == "bad_message" && shortKey["details"]?["field"] == "key", "\(shortKey.jsonText)")
            #expect(try await first.request(Self.join("lobby", key: "first-key-0123456789", [:]))["type"] == "presenceJoined")
            #expect(try await second.request(Self.join("lobby", key: "second-key-012345678", [:]))["type"] == "presenceJoined")
            let full = try await third.request(Self.join("lobby", key: "third-key-0123456789", [:]))
            #expect(full["code"] == "limit_exceeded" && full["details"]?["limit"] == "maxPresenceMembers", "\(full.jsonText)")
            #expect(
                try await third.request(Self.join("character", key: "third-key-0123456789", [:]))["type"] == "presenceJoined", "per target")
            let bigUpdate = try await first.request(Self.update("lobby", big))
            #expect(bigUpdate["code"] == "limit_exceeded" && bigUpdate["details"]?["limit"] == "maxPresenceStateBytes")
            let notJoined = try await third.request(Self.update("lobby", [:]))
            #expect(notJoined["code"] == "not_joined" && notJoined["details"]?["target"] == "lobby", "\(notJoined.jsonText)")
            // A burst of 40 updates: a bucket of 5 refilled at 5 a second cannot take them all.
            for n in 0..<40 {
                first.send([
                    "type": "presenceUpdate", "id": .number(Double(5_000 + n)), "target": "lobby", "state": ["n": .number(Double(n))],
                ])
            }
            let replies = try await waitFor("the burst's 40 replies") { () -> [JSONValue]? in
                let got = first.buffered.filter { ($0["id"]?.intValue ?? 0) >= 5_000 }
                return got.count == 40 ? got : nil
            }
            let limited = replies.filter { $0["code"] == "rate_limited" }
            #expect(!limited.isEmpty && limited.allSatisfy { $0["details"]?["limit"] == "maxPresenceUpdatesPerSecond" })
            #expect(replies.filter { $0["type"] == "presenceUpdated" }.count >= 5, "the bucket's first five pass")
        }
    }

    @Test func aReaderWithoutSeePresenceSeesNoPresenceAtAll() async throws {
        let daemon = try Self.startInProcess()
        do {
            let reader = try await Self.connect(daemon, token: Self.readerToken)
            let member = try await Self.connect(daemon)
            let snapshot = try await reader.request(["type": "subscribe", "target": "lobby"])
            #expect(snapshot["type"] == "snapshot" && snapshot["presence"] == nil, "no presence member at all: \(snapshot.jsonText)")
            let joined = try await member.request(Self.join("lobby", key: "member-key-0123456789", ["name": "M"]))
            _ = try await member.request(["type": "subscribe", "target": "lobby"])
            _ = try await member.request(Self.update("lobby", ["name": "M2"]))
            _ = try await Self.change(of: try #require(joined["member"]), member, what: "the update reaching a subscriber that may see it")
            _ = try await member.request(["type": "set", "target": "lobby", "path": "title", "value": "after"])
            _ = try await reader.nextBatch("lobby")
            #expect(reader.buffered.allSatisfy { $0["type"] != "presence" }, "\(reader.buffered.map(\.jsonText))")
            let list = try await reader.request(["type": "presenceList", "target": "lobby"])
            #expect(list["code"] == "forbidden" && list["details"]?["scope"] == "seePresence", "\(list.jsonText)")
            let join = try await reader.request(Self.join("lobby", key: "reader-key-0123456789", [:]))
            #expect(join["code"] == "forbidden" && join["details"]?["scope"] == "publishPresence", "\(join.jsonText)")
            let resumed = try await reader.request([
                "type": "subscribe", "target": "lobby", "cursor": ["epoch": try #require(snapshot["epoch"]), "seq": 0],
            ])
            #expect(resumed["type"] == "subscribed" && resumed["presence"] == nil, "\(resumed.jsonText)")
        }
    }

    @Test func aBurstOfUpdatesBecomesAtMostRateMessagesWithTheLatestState() async throws {
        let daemon = try Self.startInProcess(limits: ["maxPresenceUpdatesPerSecond": 10_000])
        do {
            let owner = try await Self.connect(daemon)
            let created = try await owner.request([
                "type": "createStateMachine", "file": "demo", "name": "slow", "artboard": "Lobby", "mode": "manual", "rate": 4,
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            let watcher = try await Self.connect(daemon)
            _ = try await watcher.request(["type": "subscribe", "target": "slow"])
            let member = try #require(try await owner.request(Self.join("slow", key: "burst-key-0123456789", ["x": 0]))["member"])
            _ = try await Self.change(of: member, watcher, what: "the join")
            let updates = 200
            let start = daemon.clock.now()
            for x in 1...updates { owner.send(["type": "presenceUpdate", "target": "slow", "state": ["x": .number(Double(x))]]) }
            let last = try await watcher.next(
                where: { $0["changes"]?.arrayValue?.first?["state"]?["x"]?.intValue == updates }, what: "the latest state")
            let messages = watcher.takeAll { $0["type"] == "presence" }.count + 1
            let seconds = Double(daemon.clock.now() - start) / 1e9  // the daemon's clock
            print("presence burst: \(updates) updates → \(messages) presence messages in \(seconds) s at rate 4")
            #expect(last["changes"]?.arrayValue?.count == 1)
            #expect(messages <= Int(seconds * 4) + 1, "at most rate messages a second (and the one at once)")
            #expect(owner.buffered.allSatisfy { $0["code"] == nil }, "every update was taken")
        }
    }
}
