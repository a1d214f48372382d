import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The connection core's part of transactions and authors (PROTOCOL.md §16, §17): each command
/// is authorised on its own, the limit on commands, and who sends what is routed with it.
@Suite struct ConnectionTransactionTests {
    static func transaction(_ commands: [JSONValue]) -> JSONValue {
        ["type": "transaction", "id": 5, "target": "room", "commands": .array(commands)]
    }

    static func routed(_ actions: [ConnectionAction]) -> [(Request, Author?)] {
        actions.compactMap { action in
            guard case .route(_, let request, _, let sender) = action else { return nil }
            return (request, sender.author)
        }
    }

    @Test func aCommandTheConnectionMayNotMakeFailsTheTransactionWithItsIndex() {
        var driver = ConnectionDriver()
        driver.greeted()
        let actions = driver.send(Self.transaction([["type": "fire", "path": "go"], ["type": "fire", "path": "locked"]]))
        #expect(Self.routed(actions).isEmpty)
        #expect(actions.sent.map { $0["code"] } == ["forbidden"])
        #expect(actions.sent.first?["details"]?["commandIndex"] == 1 && actions.sent.first?["id"] == 5)
    }

    @Test func tooManyCommandsAreLimitExceeded() {
        var driver = ConnectionDriver()
        driver.greeted()
        let fire: JSONValue = ["type": "fire", "path": "go"]
        let actions = driver.send(Self.transaction([fire, fire, fire]))
        #expect(Self.routed(actions).isEmpty)
        #expect(actions.sent.first?["code"] == "limit_exceeded" && actions.sent.first?["details"]?["limit"] == "maxTransactionCommands")
        #expect(Self.routed(driver.send(Self.transaction([fire, fire]))).count == 1, "at the limit it is routed")
    }

    @Test func requestsAreRoutedWithTheirAuthor() {
        var driver = ConnectionDriver()
        _ = driver.open(1)
        _ = driver.send(["type": "hello", "protocol": [1], "token": "good", "client": "suite/1"], from: 1)
        driver.greeted(2)
        let first = Self.routed(driver.send(Self.transaction([["type": "fire", "path": "go"]]), from: 1))
        #expect(first.map(\.1) == [Author(client: "suite/1", token: "good")])
        if case .transaction(let transaction)? = first.first?.0.body {
            #expect(transaction.commands == [.fire(target: "room", path: "go")])
        } else {
            Issue.record("not routed as a transaction: \(first.map(\.0))")
        }
        let anonymous = Self.routed(driver.send(["type": "set", "target": "room", "path": "count", "value": 1], from: 2))
        #expect(anonymous.map(\.1) == [Author(client: nil, token: nil)], "anonymous, no client given")
    }
}
