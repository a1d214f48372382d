import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// The dispatcher's logic in-process, with a mock clock: hello timeout, the rate window,
/// limits, subscription counting, per-connection order across background work, tokens.
@Suite struct ConnectionsTests {
    @Test func aConnectionThatNeverSaysHelloIsClosedAtItsDeadline() throws {
        var driver = ConnectionDriver()
        let opened = driver.open()
        let deadline = try #require(
            opened.compactMap { action -> UInt64? in
                if case .schedule(.hello(ConnectionID(1)), let at) = action { return at }
                return nil
            }.first)
        #expect(deadline == driver.environment.clock + 10_000_000_000)
        driver.environment.clock = deadline
        #expect(driver.core.handle(.timerFired(.hello(ConnectionID(1)))).closes == [.policyViolation])
    }

    @Test func aGreetedConnectionOutlivesItsHelloDeadline() {
        var driver = ConnectionDriver()
        driver.greeted()
        #expect(driver.core.handle(.timerFired(.hello(ConnectionID(1)))).closes == [])
    }

    @Test func aRefusedOriginIsClosedAtOnce() {
        var driver = ConnectionDriver()
        #expect(driver.open(origin: "https://evil.example").closes == [.policyViolation])
        #expect(driver.core.count == 0)
    }

    @Test func beforeHelloEverythingIsHelloRequired() {
        var driver = ConnectionDriver()
        _ = driver.open()
        for message: JSONValue in [["type": "ping"], ["type": "nonsense"], ["type": "get", "target": "room"]] {
            let out = driver.send(message)
            #expect(out.sent.first?["code"] == "hello_required", "\(message.jsonText)")
            #expect(out.handledCount == 1)
        }
    }

    @Test func theRateWindowAdmitsTheLimitPerSecondAndStartsAgain() {
        var driver = ConnectionDriver()
        driver.environment.configuredLimits.maxCommandsPerSecond = 5
        driver.greeted()  // the hello is the first request of the window
        var codes: [String] = []
        for _ in 0..<6 { codes.append(driver.send(["type": "ping"]).sent.first?["type"]?.stringValue ?? "?") }
        #expect(codes == ["pong", "pong", "pong", "pong", "error", "error"])
        driver.environment.clock += 1_000_000_001
        #expect(driver.send(["type": "ping"]).sent.first?["type"] == "pong")
    }

    @Test func aFailedSubscribeDoesNotCountTowardTheLimit() {
        var driver = ConnectionDriver()
        driver.greeted()
        let connection = ConnectionID(1)
        // Two subscribes the worker refuses (say the paths do not exist): neither counts.
        for target in ["room", "lobby"] {
            #expect(driver.send(["type": "subscribe", "target": .string(target)]).routed.count == 1)
            _ = driver.core.handle(.subscribeAnswered(connection, target: target, paths: nil, succeeded: false))
        }
        for target in ["room", "lobby"] {
            #expect(driver.send(["type": "subscribe", "target": .string(target)]).routed.count == 1, "\(target) is routed again")
            _ = driver.core.handle(.subscribeAnswered(connection, target: target, paths: nil, succeeded: true))
        }
        #expect(driver.core.subscriptions(of: connection).keys.sorted() == ["lobby", "room"])
        let third = driver.send(["type": "subscribe", "target": "theme"])
        #expect(third.sent.first?["code"] == "limit_exceeded" && third.routed.isEmpty)
        // Subscribing again to a target already held is no new subscription.
        #expect(driver.send(["type": "subscribe", "target": "room"]).routed.count == 1)
    }

    @Test func subscribesInFlightCountTowardTheLimit() {
        var driver = ConnectionDriver()
        driver.greeted()
        #expect(driver.send(["type": "subscribe", "target": "room"]).routed.count == 1)
        #expect(driver.send(["type": "subscribe", "target": "lobby"]).routed.count == 1)
        #expect(driver.send(["type": "subscribe", "target": "theme"]).sent.first?["code"] == "limit_exceeded")
    }

    @Test func anUnsubscribeOvertakingItsSubscribesAnswerLeavesNothingCounted() {
        var driver = ConnectionDriver()
        driver.greeted()
        let connection = ConnectionID(1)
        _ = driver.send(["type": "subscribe", "target": "room"])
        _ = driver.send(["type": "unsubscribe", "target": "room"])
        _ = driver.core.handle(.subscribeAnswered(connection, target: "room", paths: nil, succeeded: true))
        #expect(driver.core.subscriptions(of: connection).isEmpty)
        // Again, then a subscribe that stays: only its answer counts.
        _ = driver.send(["type": "subscribe", "target": "room"])
        _ = driver.send(["type": "deleteTarget", "target": "room"])
        _ = driver.send(["type": "subscribe", "target": "lobby"])
        _ = driver.core.handle(.subscribeAnswered(connection, target: "room", paths: nil, succeeded: true))
        _ = driver.core.handle(.subscribeAnswered(connection, target: "lobby", paths: ["title"], succeeded: true))
        #expect(driver.core.subscriptions(of: connection) == ["lobby": ["title"]])
    }

    @Test func anUnknownTargetIsAnsweredWithoutAWorker() {
        var driver = ConnectionDriver()
        driver.greeted()
        let out = driver.send(["type": "get", "target": "nowhere", "path": "x"])
        #expect(out.sent.first?["code"] == "unknown_target" && out.routed.isEmpty && out.handledCount == 1)
    }

    @Test func laterRequestsWaitForEarlierBackgroundWorkInOrder() throws {
        var driver = ConnectionDriver()
        driver.greeted()
        driver.greeted(2)
        let connection = ConnectionID(1)
        let listing = driver.send(["type": "listTargets", "id": 1])
        #expect(listing.background.count == 1 && listing.handledCount == 0)
        // While the listing runs, this connection's next requests wait…
        #expect(driver.send(["type": "ping", "id": 2]).isEmpty)
        #expect(driver.send(["type": "get", "id": 3, "target": "room", "path": "x"]).isEmpty)
        // …and another connection is served at once.
        #expect(driver.send(["type": "ping", "id": 9], from: 2).sent.first?["type"] == "pong")
        let reply = Frame(bytes: ServerMessage.targets(ServerMessage.TargetPage(targets: [], next: nil), id: 1).serialized())
        let finished = driver.core.handle(.backgroundFinished(connection, reply: reply))
        #expect(finished.sent.map { $0["id"] } == [1, 2], "the listing's reply, then the ping's")
        #expect(finished.routed.map(\.id) == [3])
        #expect(finished.handledCount == 2, "the listing and the ping; the worker reports the get")
    }

    @Test func backgroundWorkAfterBackgroundWorkWaitsToo() {
        var driver = ConnectionDriver()
        driver.greeted()
        _ = driver.send(["type": "listTargets", "id": 1])
        #expect(driver.send(["type": "listTargets", "id": 2]).isEmpty)
        #expect(driver.send(["type": "ping", "id": 3]).isEmpty)
        let first = driver.core.handle(.backgroundFinished(ConnectionID(1), reply: Frame(bytes: Array("{}".utf8))))
        #expect(first.background.count == 1, "the second listing starts")
        #expect(first.sent.count == 1, "the ping still waits behind it")
        let second = driver.core.handle(.backgroundFinished(ConnectionID(1), reply: Frame(bytes: Array("{}".utf8))))
        #expect(second.sent.count == 2 && second.sent.last?["type"] == "pong")
    }

    @Test func anUploadOverTheLimitIsRefusedWithoutBackgroundWork() {
        var driver = ConnectionDriver()
        driver.greeted()
        let data = String(repeating: "A", count: 4096)
        let out = driver.send(["type": "upload", "kind": "image", "data": .string(data)])
        #expect(out.background.isEmpty)
        #expect(out.sent.first?["code"] == "limit_exceeded", "\(out.sent)")
    }

    @Test func aRevokedTokenIsRefusedOnItsNextRequestAndOnReload() {
        var driver = ConnectionDriver()
        driver.greeted(1, token: "good")
        driver.greeted(2, token: "good")
        driver.environment.revoked = true
        let next = driver.send(["type": "ping"], from: 1)
        #expect(next.sent.first?["code"] == "unauthorized" && next.closes == [.policyViolation])
        let reload = driver.core.handle(.tokensReloaded)
        #expect(reload.closes == [.policyViolation], "the other connection of the token is closed on reload")
        #expect(driver.core.count == 0)
    }

    @Test func binaryFramesAreClosed() {
        var driver = ConnectionDriver()
        driver.greeted()
        let out = driver.core.handle(.received(ConnectionID(1), bytes: [0, 1], isText: false))
        #expect(out.closes == [.protocolError] && out.handledCount == 1)
    }
}
