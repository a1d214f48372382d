import Foundation
import Testing
import RiveSyncTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/healthz` and `/metrics` on the daemon's port, with the daemon's own counters.
@Suite(.serialized) struct MetricsTests {
    @Test func metricsCountWhatHappened() async throws {
        let daemon = try DaemonProcess(["--demo"])
        defer { daemon.stop() }
        let client = try await TestClient.connected(to: daemon)
        _ = try await client.request(["type": "subscribe", "target": "character"])
        _ = try await client.request(["type": "set", "target": "character", "path": "mood", "value": 1])
        _ = try await client.request(["type": "set", "target": "character", "path": "nope", "value": 1])
        let (health, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(daemon.port)/healthz")!)
        #expect(String(decoding: health, as: UTF8.self) == "ok\n")
        let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(daemon.port)/metrics")!)
        let metrics = String(decoding: body, as: UTF8.self)
        for line in [
            "rivesync_subscriptions 1", "rivesync_batches_total 1", "rivesync_commands_applied_total 1", "rivesync_errors_total 1",
            "rivesync_commands_queued 0", "rivesync_advance_duration_seconds_count 1",
        ] {
            #expect(metrics.contains(line + "\n"), "missing \(line) in\n\(metrics)")
        }
        for name in ["rivesync_transport_connections", "rivesync_transport_bytes_out", "rivesync_transport_queued_bytes"] {
            #expect(metrics.contains(name), "missing \(name)")
        }
    }
}
