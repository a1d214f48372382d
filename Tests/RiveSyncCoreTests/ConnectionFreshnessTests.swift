import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// A cluster node's freshness and its closing of every connection are the connection core's
/// decisions, taken on events (PROTOCOL.md §7.1, protocol/CLUSTER.md §3.2).
@Suite struct ConnectionFreshnessTests {
    @Test func greetedConnectionsAreToldAndLaterHellosHearItAfterWelcome() {
        var driver = ConnectionDriver()
        driver.greeted(1)
        _ = driver.open(2)
        let behind = driver.core.handle(.freshness(false))
        #expect(behind.sent == [["type": "freshness", "fresh": false]])
        #expect(
            behind.compactMap { if case .send(_, let to) = $0 { to } else { nil } } == [Recipients(ConnectionID(1))], "only who said hello")
        let hello = driver.send(["type": "hello", "protocol": [1]], from: 2)
        #expect(hello.sent.map { $0["type"] } == ["welcome", "freshness"])
        let fresh = driver.core.handle(.freshness(true))
        #expect(fresh.sent == [["type": "freshness", "fresh": true]])
        driver.greeted(3)
        #expect(driver.core.stateIsFresh)
    }

    @Test func closeAllClosesEveryOpenConnection() {
        var driver = ConnectionDriver()
        driver.greeted(1)
        _ = driver.open(2)
        let closes = driver.core.handle(.closeAll(code: .goingAway, reason: "cluster lease lost"))
        #expect(closes.closes == [.goingAway, .goingAway])
    }
}
