import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A connection's requests go to their workers with one sender (its identity's grants and its
/// author), looked up at its first request and kept until the settings change: a reload's
/// grants apply from the next request on. The routed action is small enough to move inline.
@Suite struct ConnectionCredentialsTests {
    static func senders(_ actions: [ConnectionAction]) -> [RequestSender] {
        actions.compactMap { action in
            guard case .route(_, _, _, let sender) = action else { return nil }
            return sender
        }
    }

    static let set: JSONValue = ["type": "set", "target": "room", "path": "count", "value": 1]
    static let get: JSONValue = ["type": "get", "target": "room", "path": "count"]

    @Test func aConnectionsRequestsShareOneSenderUntilAReload() throws {
        var driver = ConnectionDriver()
        driver.greeted(1, token: "good")
        driver.greeted(2)
        let first = try #require(Self.senders(driver.send(Self.set, from: 1)).first)
        let second = try #require(Self.senders(driver.send(Self.get, from: 1)).first)
        #expect(first === second, "kept from request to request")
        #expect(first.author == Author(client: nil, token: "good") && first.grants.may(.write, on: "room", at: "count"))
        let other = try #require(Self.senders(driver.send(Self.set, from: 2)).first)
        #expect(other !== first && other.author == Author(client: nil, token: nil), "each connection its own")

        let readOnly = Grants(scopes: [Scope(permissions: [.read], targets: .any, prefixes: [[]])])
        driver.configure { $0.access.tokens = [ConnectionAccess.Token(name: "good", digest: Array("doog".utf8), grants: readOnly)] }
        let denied = driver.send(Self.set, from: 1)
        #expect(Self.senders(denied).isEmpty && denied.sent.first?["code"] == "forbidden", "the reload's grants are checked")
        let third = try #require(Self.senders(driver.send(Self.get, from: 1)).first)
        #expect(third !== first && !third.grants.may(.write, on: "room", at: "count"), "and routed")
        #expect(third.author == first.author)
    }

    /// Every move of a value over 128 bytes is a `memcpy` call, and a request's action and event
    /// move several times on the way from the connection core to the worker core; the message
    /// that becomes the request moves into the connection core as a `ConnectionEvent`.
    @Test func aRoutedRequestsActionAndEventFitIn128Bytes() {
        #expect(MemoryLayout<ConnectionEvent>.size <= 128, "\(MemoryLayout<ConnectionEvent>.size)")
        #expect(MemoryLayout<ConnectionAction>.size <= 128, "\(MemoryLayout<ConnectionAction>.size)")
        #expect(MemoryLayout<WorkerEvent>.size <= 128, "\(MemoryLayout<WorkerEvent>.size)")
    }
}
