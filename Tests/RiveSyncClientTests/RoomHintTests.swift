import Foundation
import RiveSyncClient
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift client sends a URL's query as it is given: a room hint (protocol/PROTOCOL.md §2)
/// reaches a daemon with two transport threads, which places the connection by it.
@Suite struct RoomHintTests {
    @Test func aWorkersURLQueryReachesTheDaemon() async throws {
        try await withDaemon(["--demo"], environment: ["RIVESYNC_TRANSPORT_THREADS": "2"]) { daemon in
            let worker = try await Worker(url: daemon.url + "?file=demo")
            let file = try await File(source: .name("demo"), worker: worker)
            _ = try await file.createArtboard("Character")
            let url = try #require(URL(string: "http://127.0.0.1:\(daemon.port)/metrics"))
            let (body, _) = try await URLSession.shared.data(from: url)
            let metrics = String(decoding: body, as: UTF8.self)
            await worker.close()
            #expect(metrics.contains("\nrivesync_transport_connections_steered_total 1\n"), "\(metrics)")
        }
    }
}
