import Foundation
import RiveSyncInProcess
import RiveSyncTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/healthz`, `/readyz` and `/metrics` on the daemon's port: the daemon's own counters with
/// their labels, build and process facts, and the whole exposition checked by `promtool`; the
/// cap on target labels in the daemon's counters (the whole daemon in-process).
@Suite(.serialized) struct MetricsTests {
    static func get(_ daemon: DaemonProcess, _ path: String) async throws -> (status: Int, body: String) {
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(daemon.port)\(path)")!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }

    @Test func metricsCountWhatHappened() async throws {
        try await withDaemon(["--demo"]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            _ = try await client.request(["type": "subscribe", "target": "character"])
            _ = try await client.request(["type": "set", "target": "character", "path": "mood", "value": 1])
            _ = try await client.request(["type": "set", "target": "character", "path": "nope", "value": 1])
            _ = try await client.request(["type": "get", "target": "nowhere", "path": "mood"])
            #expect(try await Self.get(daemon, "/healthz") == (200, "ok\n"))
            #expect(try await Self.get(daemon, "/readyz") == (200, "ready\n"))
            let (status, metrics) = try await Self.get(daemon, "/metrics")
            #expect(status == 200)
            for line in [
                #"rivesync_subscriptions{target="character"} 1"#, #"rivesync_batches_total{target="character"} 1"#,
                #"rivesync_commands_applied_total{target="character"} 1"#, #"rivesync_errors_total{code="no_such_property"} 1"#,
                #"rivesync_errors_total{code="unknown_target"} 1"#, "rivesync_commands_queued 0",
                "rivesync_advance_duration_seconds_count 1",
                #"rivesync_build_info{version="0.1.0",protocol="1"} 1"#,
            ] {
                #expect(metrics.contains("\n" + line + "\n"), "missing \(line) in\n\(metrics)")
            }
            for name in [
                "rivesync_transport_connections", "rivesync_transport_bytes_out_total", "rivesync_transport_queued_bytes",
                "process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds", "process_max_fds",
                "process_start_time_seconds",
            ] {
                #expect(metrics.contains("\n\(name) "), "missing \(name)")
            }
            let rss = metrics.split(separator: "\n").first { $0.hasPrefix("process_resident_memory_bytes ") }.flatMap {
                Double($0.split(separator: " ")[1])
            }
            #expect((rss ?? 0) > 1_000_000, "resident memory should be megabytes, got \(rss ?? 0)")
        }
    }

    /// The exposition of a daemon that served some traffic (labels, a histogram, errors)
    /// passes `promtool check metrics` (Debian's `prometheus`, installed by .ci/setup-tests.sh).
    @Test func promtoolAcceptsTheExposition() async throws {
        let promtool = try ChildProcess.find("promtool", hint: "apt-get install prometheus, or sh .ci/setup-tests.sh")
        try await withDaemon(["--demo"]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            _ = try await client.request(["type": "subscribe", "target": "lobby"])
            _ = try await client.request(["type": "set", "target": "character", "path": "mood", "value": 2])
            _ = try await client.request(["type": "set", "target": "character", "path": "missing", "value": 2])
            let (_, metrics) = try await Self.get(daemon, "/metrics")
            #expect(metrics.contains(#"rivesync_errors_total{code="no_such_property"} 1"#))
            let result = try ChildProcess.run(promtool, ["check", "metrics"], input: .text(metrics), output: .merged, seconds: 60)
            #expect(result.status == 0, "promtool check metrics:\n\(result.output)\n--- exposition:\n\(metrics)")
        }
    }

    /// Targets past `metrics.maxTargetLabels` share the label `_other`, so a client that
    /// creates targets without end cannot grow the exposition without end.
    @Test func targetLabelsStopAtTheCap() async throws {
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let path = try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(schema)"}], "metrics": {"maxTargetLabels": 2}, "auth": {"allowAnonymous": "loopback"}}"#
        )
        try await withInProcessDaemon(["--config", path]) { daemon in
            let client = try await daemon.connected()
            for name in ["a", "b", "c", "d"] {
                let created = try await client.request(
                    ["type": "createStateMachine", "file": "demo", "artboard": "Character", "name": .string(name)])
                #expect(created["type"] != "error", "\(created.jsonText)")
                let subscribed = try await client.request(["type": "subscribe", "target": .string(name)])
                #expect(subscribed["type"] != "error", "\(subscribed.jsonText)")
            }
            let metrics = daemon.metricsText()
            let labelled = metrics.split(separator: "\n").filter { $0.hasPrefix("rivesync_subscriptions{") }
            #expect(
                labelled == [
                    #"rivesync_subscriptions{target="_other"} 2"#, #"rivesync_subscriptions{target="a"} 1"#,
                    #"rivesync_subscriptions{target="b"} 1"#,
                ])
        }
    }
}
