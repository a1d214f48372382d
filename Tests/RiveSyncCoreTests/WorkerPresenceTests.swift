import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Presence in the worker core (PROTOCOL.md §15) with the mock clock: members in snapshots,
/// coalesced messages paced by the target's rate and placed by seq among batches, grace and
/// resume, catch-up, deletion, `seePresence`, and nothing of it in the log.
@Suite struct WorkerPresenceTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)
    static let carol = ConnectionID(3)
    static let aliceKey = "alice-key-0123456789"
    static let bobKey = "bob-key-0123456789ab"
    /// The room's interval at the mock's default rate (10 a second).
    static let interval: UInt64 = 100_000_000

    static func join(_ key: String, _ state: JSONValue) -> ClientRequest {
        .presence(.join(target: "room", key: key, state: state))
    }

    static func update(_ state: JSONValue) -> ClientRequest { .presence(.update(target: "room", state: state)) }

    static let subscribe = ClientRequest.subscribe(target: "room", paths: nil, cursor: nil)

    /// The presence messages' changes sent to `connection`, as JSON.
    static func presence(_ actions: [WorkerAction], to connection: ConnectionID) throws -> [[JSONValue]] {
        try WorkerDriver.messages(actions, to: connection).filter { $0["type"] == "presence" }.map {
            try #require($0["changes"]?.arrayValue)
        }
    }

    @Test func aSubscriberGetsTheMembersInItsSnapshotThenTheChangesInOrder() throws {
        let driver = try WorkerDriver()
        let joined = try WorkerDriver.messages(driver.request(Self.join(Self.aliceKey, ["name": "Ana"]), from: Self.alice), to: Self.alice)
        #expect(joined.map(\.jsonText) == [#"{"type":"presenceJoined","id":1,"target":"room","member":"p-1","resumed":false}"#])
        driver.environment.clock += Self.interval
        driver.request(Self.join(Self.bobKey, ["name": "Bo"]), from: Self.bob)
        let snapshot = try #require(try WorkerDriver.messages(driver.request(Self.subscribe, from: Self.carol), to: Self.carol).first)
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["presence"]?.jsonText == #"[{"member":"p-1","state":{"name":"Ana"}},{"member":"p-2","state":{"name":"Bo"}}]"#)
        driver.environment.clock += 10_000_000
        let moved = driver.request(Self.update(["name": "Ana", "cursor": [1, 2]]), from: Self.alice)
        #expect(try Self.presence(moved, to: Self.carol).isEmpty, "within the interval: waits")
        let timer = try #require(WorkerDriver.timers(moved).first)
        #expect(timer.0 == .presenceMessage(target: "room") && timer.1 == driver.environment.clock - 10_000_000 + Self.interval)
        driver.environment.clock = timer.1
        let sent = try WorkerDriver.messages(driver.fire(timer.0), to: Self.carol)
        #expect(
            sent.map(\.jsonText) == [
                #"{"type":"presence","target":"room","epoch":"e-1","seq":0,"changes":[{"op":"update","member":"p-1","state":{"name":"Ana","cursor":[1,2]}}]}"#
            ])
        let listed = try WorkerDriver.messages(driver.request(.presence(.list(target: "room")), from: Self.carol), to: Self.carol)
        #expect(listed.first?["members"]?.arrayValue?.map { $0["member"] } == ["p-1", "p-2"])
    }

    @Test func manyUpdatesInOneIntervalBecomeOneMessageWithTheLatestState() throws {
        let driver = try WorkerDriver()
        driver.configure { $0.limits.presence.maxUpdatesPerSecond = 1_000 }
        driver.request(Self.subscribe, from: Self.carol)
        var actions = driver.request(Self.join(Self.aliceKey, ["x": 0]), from: Self.alice)
        #expect(try Self.presence(actions, to: Self.carol).count == 1, "the first change goes at once")
        for x in 1...50 {
            driver.environment.clock += 1_000_000
            actions += driver.request(Self.update(["x": .number(Double(x))]), from: Self.alice)
        }
        driver.request(Self.join(Self.bobKey, [:]), from: Self.bob)
        driver.request(.presence(.leave(target: "room")), from: Self.bob)
        let timers = WorkerDriver.timers(actions)
        #expect(timers.count == 1, "one timer for the whole burst")
        driver.environment.clock = try #require(timers.first).1
        let changes = try Self.presence(driver.fire(.presenceMessage(target: "room")), to: Self.carol)
        #expect(
            changes.map { $0.map(\.jsonText) } == [[#"{"op":"update","member":"p-1","state":{"x":50}}"#]], "bob's join and leave cancel out"
        )
    }

    @Test func aPresenceMessageComesAfterTheBatchItNamesAndBeforeTheNext() throws {
        let driver = try WorkerDriver()
        driver.request(Self.subscribe, from: Self.carol)
        driver.request(Self.join(Self.aliceKey, ["n": 1]), from: Self.alice)
        driver.request(.set(target: "room", path: "count", value: 1), from: Self.bob)
        driver.environment.clock += 10_000_000
        driver.request(Self.update(["n": 2]), from: Self.alice)
        _ = driver.fire(.advance(target: "room"))
        driver.environment.clock += Self.interval
        let actions = driver.fire(.presenceMessage(target: "room"))
        driver.request(.set(target: "room", path: "count", value: 2), from: Self.bob)
        let all = try WorkerDriver.messages(actions + driver.fire(.advance(target: "room")), to: Self.carol)
        #expect(all.map { "\($0["type"]?.stringValue ?? "?") \($0["seq"]?.intValue ?? -1)" } == ["presence 1", "batch 2"])
    }

    @Test func aClosedConnectionLeavesAfterTheGracePeriodUnlessItsKeyResumes() throws {
        let driver = try WorkerDriver()
        driver.request(Self.subscribe, from: Self.carol)
        driver.request(Self.join(Self.aliceKey, ["name": "Ana"]), from: Self.alice)
        driver.request(Self.join(Self.bobKey, ["name": "Bo"]), from: Self.bob)
        driver.environment.clock += Self.interval
        _ = driver.fire(.presenceMessage(target: "room"))
        let closed = driver.run(.closed(Self.alice)) + driver.run(.closed(Self.bob))
        let grace = driver.core.settings.limits.presence.graceNanoseconds
        #expect(WorkerDriver.timers(closed).map(\.1) == [driver.environment.clock + grace], "one timer for both deadlines")
        #expect(try Self.presence(closed, to: Self.carol).isEmpty, "a closed connection's member stays meanwhile")
        driver.environment.clock += grace / 2
        let bobAgain = ConnectionID(4)
        let resumed = try WorkerDriver.messages(driver.request(Self.join(Self.bobKey, ["name": "Bo"]), from: bobAgain), to: bobAgain)
        #expect(resumed.first?["member"] == "p-2" && resumed.first?["resumed"] == true)
        driver.environment.clock += grace / 2
        let ended = try Self.presence(driver.fire(.presenceGrace(target: "room")), to: Self.carol)
        #expect(ended.map { $0.map(\.jsonText) } == [[#"{"op":"leave","member":"p-1","reason":"disconnected"}"#]])
        let members = try WorkerDriver.messages(driver.request(.presence(.list(target: "room")), from: Self.carol), to: Self.carol)
        #expect(members.first?["members"]?.arrayValue?.map { $0["member"] } == ["p-2"])
    }

    @Test func aCatchUpSnapshotCarriesTheMembersInsteadOfTheMessagesMissed() throws {
        let driver = try WorkerDriver()
        driver.request(Self.subscribe, from: Self.carol)
        driver.shell.queued[Self.carol] = driver.core.settings.limits.maxSendQueueBytes
        let joined = driver.request(Self.join(Self.aliceKey, ["name": "Ana"]), from: Self.alice)
        #expect(try Self.presence(joined, to: Self.carol).isEmpty, "a lagging subscriber gets no presence message")
        driver.shell.queued[Self.carol] = 0
        driver.environment.clock += 20_000_000
        let caughtUp = try WorkerDriver.messages(driver.fire(.catchUpCheck), to: Self.carol)
        #expect(caughtUp.map { $0["type"] } == ["snapshot"])
        #expect(caughtUp.first?["presence"]?.arrayValue?.map { $0["member"] } == ["p-1"])
    }

    @Test func withoutSeePresenceASubscriptionCarriesNoPresenceAtAll() throws {
        let driver = try WorkerDriver()
        driver.request(Self.join(Self.aliceKey, ["name": "Ana"]), from: Self.alice)
        let plain = driver.run(
            .request(Self.carol, Request(id: 1, body: Self.subscribe), sender: RequestSender(grants: PresenceBlindGrants(), author: nil)))
        let snapshot = try #require(try WorkerDriver.messages(plain, to: Self.carol).first)
        #expect(snapshot["type"] == "snapshot" && snapshot["presence"] == nil)
        driver.environment.clock += Self.interval
        #expect(try WorkerDriver.messages(driver.request(Self.update(["name": "A"]), from: Self.alice), to: Self.carol).isEmpty)
    }

    @Test func presenceNeverReachesTheLogAndGoesWithItsTarget() throws {
        let driver = try WorkerDriver()
        let before = driver.log.records["demo"]?.count
        driver.request(Self.join(Self.aliceKey, ["name": "Ana"]), from: Self.alice)
        driver.request(Self.update(["name": "Ana B"]), from: Self.alice)
        _ = driver.run(.closed(Self.alice))
        #expect(driver.log.records["demo"]?.count == before, "no record for presence")
        let notJoined = try WorkerDriver.messages(driver.request(Self.update([:]), from: Self.bob), to: Self.bob)
        #expect(notJoined.first?["code"] == "not_joined")
        driver.request(.deleteTarget(target: "room"), from: Self.bob)
        #expect(try WorkerDriver.messages(driver.fire(.presenceGrace(target: "room")), to: Self.bob).isEmpty, "its timers find nothing")
        #expect(try WorkerDriver.messages(driver.fire(.presenceMessage(target: "room")), to: Self.bob).isEmpty)
    }
}

/// Every grant but `seePresence`.
struct PresenceBlindGrants: RequestGrants {
    var mayCreate: Bool { true }
    func may(_ access: TargetAccess, on target: String, at path: String) -> Bool { true }
    func mayWithin(_ access: TargetAccess, on target: String, at path: String) -> Bool { true }
    func seesPresence(of target: String) -> Bool { false }
    var presenceOwner: PresenceOwner { .anonymous }
}
