import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// A daemon serving its connections on two transport threads (`transportThreads`), through
/// real sockets: connections go to the threads in turn, so four clients are two on each,
/// unless their URL names their room (`?target=`, `?file=`): then they go to the thread of the
/// room's worker.
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

    /// A room on worker 1 (thread 1): its creator says `?file=two`, the others `?target=room`.
    /// All four are served on thread 1, so their sets, acks and batches cross no thread
    /// (`rivesync_transport_thread_hops_total` does not move); two clients without a hint go
    /// in turn, and the one on thread 0 makes its set cross.
    @Test func hintedClientsOfARoomCrossNoThread() async throws {
        let directory = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let config: JSONValue = [
            "workers": 2,
            "files": [["name": "one", "path": .string(schema), "worker": 0], ["name": "two", "path": .string(schema), "worker": 1]],
            "auth": ["allowAnonymous": "loopback"],
        ]
        let path = directory + "/config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        try await withDaemon(["--config", path], environment: ["RIVESYNC_TRANSPORT_THREADS": "2"]) { daemon in
            let creator = try await Self.connected(to: daemon.url + "?file=two")
            let room = try await creator.request(["type": "createStateMachine", "file": "two", "name": "room", "artboard": "Lobby"])
            try #require(room["type"] == "target", "\(room.jsonText)\n\(daemon.stderr)")
            var clients = [creator]
            for _ in 0..<3 { clients.append(try await Self.connected(to: daemon.url + "?target=room")) }
            for client in clients {
                let snapshot = try await client.request(["type": "subscribe", "target": "room"])
                try #require(snapshot["type"] == "snapshot", "\(snapshot.jsonText)")
            }
            let before = try await Self.metrics(daemon)
            #expect(before["rivesync_transport_connections_steered_total"] == 4, "\(before)")
            try await Self.setTitles(clients, from: 0)
            let after = try await Self.metrics(daemon)
            #expect(after["rivesync_transport_thread_hops_total"] == before["rivesync_transport_thread_hops_total"])
            var unhinted: [TestClient] = []
            for _ in 0..<2 { unhinted.append(try await Self.connected(to: daemon.url)) }
            try await Self.setTitles(unhinted, from: 100)
            let crossed = try await Self.metrics(daemon)
            #expect(crossed["rivesync_transport_thread_hops_total"]! > after["rivesync_transport_thread_hops_total"]!)
        }
    }

    /// `wss://` on two and three transport threads (TLS sockets go to the threads in turn, not
    /// steered: their request is encrypted when they are accepted): every handshake completes,
    /// for clients one after another and all at once, with and without a `?target=` hint, and
    /// each client's hello is welcomed and its set acked.
    @Test(arguments: [2, 3]) func wssClientsOnSeveralThreadsAllComplete(threads: Int) async throws {
        let directory = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        try makeSelfSignedCertificate(certificate: certificate, key: key)
        let config: JSONValue = [
            "workers": .number(Double(threads)), "transportThreads": .number(Double(threads)),
            "tls": ["certificate": .string(certificate), "key": .string(key)],
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "auth": ["allowAnonymous": "loopback"],
        ]
        let path = directory + "/config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        try await withDaemon(["--config", path]) { daemon in
            let url = "wss://127.0.0.1:\(daemon.port)/"
            let creator = try await Self.connected(to: url, tls: Self.selfSigned)
            let room = try await creator.request(["type": "createStateMachine", "file": "demo", "name": "room", "artboard": "Lobby"])
            try #require(room["type"] == "target", "\(room.jsonText)\n\(daemon.stderr)")
            for index in 0..<12 {
                let client = try await Self.connected(to: url + (index % 2 == 0 ? "" : "?target=room"), tls: Self.selfSigned)
                try await Self.setTitles([client], from: index)
                client.close()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let client = try await Self.connected(to: url + (index % 2 == 0 ? "" : "?target=room"), tls: Self.selfSigned)
                        try await Self.setTitles([client], from: 100 + index)
                        client.close()
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// A self-signed certificate for 127.0.0.1, accepted as such.
    static let selfSigned = WebSocketClient.TLSOptions(allowSelfSigned: true, skipHostnameCheck: true)

    static func connected(to url: String, tls: WebSocketClient.TLSOptions = .init()) async throws -> TestClient {
        let client = try TestClient(url: url, tls: tls)
        let welcome = try await client.request(["type": "hello", "protocol": [1]])
        try #require(welcome["type"] == "welcome", "\(welcome.jsonText)")
        return client
    }

    /// Each client sets the room's title once and gets its ack.
    static func setTitles(_ clients: [TestClient], from first: Int) async throws {
        for (index, client) in clients.enumerated() {
            let ack = try await client.request(["type": "set", "target": "room", "path": "title", "value": .string("t\(first + index)")])
            #expect(ack["type"] == "ack", "\(ack.jsonText)")
        }
    }

    /// The daemon's counters, by name.
    static func metrics(_ daemon: DaemonProcess) async throws -> [String: Int] {
        let (status, body) = try await MetricsTests.get(daemon, "/metrics")
        try #require(status == 200, "\(body)")
        var values: [String: Int] = [:]
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }
}
