import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A daemon serving its connections on two transport threads (`transportThreads`), through
/// real sockets: connections go to the threads in turn, so four clients are two on each.
@Suite struct TransportThreadsTests {
    /// Clients of one room on both threads: each client's set is acked after its batch, and
    /// every subscriber gets the room's batches in the one order.
    @Test func clientsOnBothThreadsShareOneRoomInOneOrder() async throws {
        try await withDaemon(["--demo"], environment: ["RIVESYNC_TRANSPORT_THREADS": "2"]) { daemon in
            var clients: [TestClient] = []
            for _ in 0..<4 { clients.append(try await TestClient.connected(to: daemon)) }
            let room = try await clients[0].request([
                "type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby",
            ])
            try #require(room["type"] == "target", "\(room.jsonText)\n\(daemon.stderr)")
            for client in clients {
                let snapshot = try await client.request(["type": "subscribe", "target": "room"])
                try #require(snapshot["type"] == "snapshot", "\(snapshot.jsonText)")
            }
            for (index, client) in clients.enumerated() {
                let ack = try await client.request(["type": "set", "target": "room", "path": "title", "value": .string("from \(index)")])
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
            }
            for client in clients {
                var titles: [String] = []
                var seqs: [Int] = []
                while titles.count < 4 {
                    let batch = try await client.nextBatch("room")
                    seqs.append(batch["seq"]?.intValue ?? 0)
                    for effect in batch["effects"]?.arrayValue ?? [] where effect["property"] == "title" {
                        titles.append(effect["value"]?.stringValue ?? "")
                    }
                }
                #expect(titles == (0..<4).map { "from \($0)" })
                #expect(seqs == [1, 2, 3, 4])
            }
        }
    }
}
