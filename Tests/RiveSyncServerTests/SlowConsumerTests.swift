import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A subscriber that stops reading must not slow the others, nor grow the daemon's memory,
/// nor silently lose state: when it reads again it gets a catch-up snapshot and converges.
@Suite(.serialized) struct SlowConsumerTests {
    static let writes = 3_000
    static let titleBytes = 8 * 1024

    @Test func slowSubscriberGetsACatchUpWhileOthersKeepFullRate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 1 MiB send queue: the slow consumer (which reads nothing) passes it after about 128
        // of the 3,000 8 KiB batches, while the fast one, in this test process, has half of it
        // (64 batches, 0.3 s at rate 200) of headroom on a loaded machine before it would lag.
        let config: JSONValue = [
            "files": [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]],
            "instances": [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]],
            "stateMachines": [["name": "lobby", "file": "demo", "artboard": "Lobby", "globals": ["Theme": "theme"], "rate": 200]],
            "limits": ["maxSendQueueBytes": 1_048_576, "historyBatches": 16],
            "auth": ["allowAnonymous": "loopback"],
        ]
        let configPath = directory.appendingPathComponent("config.json").path
        try Data(config.serialized()).write(to: URL(fileURLWithPath: configPath))
        try await withDaemon(["--config", configPath]) { daemon in

            let fast = try await ReplicaClient(daemon: daemon, file: "demo", target: "lobby")
            let slow = try ChildProcess(
                PythonScript.pathPython, [PythonScript.path("slow_consumer.py"), String(daemon.port)], input: .pipe)
            defer { slow.stop(graceSeconds: 5) }
            let ready = try slow.nextLine(within: 60)
            try #require(ready == "ready", "slow consumer did not start: \(ready) \(slow.stderr)")

            let residentBefore = try daemon.residentKiB
            let writer = try await TestClient.connected(to: daemon)
            let padding = String(repeating: "x", count: Self.titleBytes)
            // Sent a window at a time: a window's acks come after its batch, so the writes make at
            // least one batch a window (375 of 8 KiB, three times what the queue and the sockets
            // hold). Sent all at once, an advance takes every set queued and keeps the last
            // title: a loaded run (CI) made 67 batches of the 3,000, which the queue held.
            let window = 8
            for first in stride(from: 0, to: Self.writes, by: window) {
                let ids = first..<min(first + window, Self.writes)
                for i in ids {
                    writer.send([
                        "type": "set", "id": .number(Double(i)), "target": "lobby", "path": "title", "value": .string("\(i)-\(padding)"),
                    ])
                }
                for i in ids {
                    let reply = try await writer.next(where: { $0["id"]?.intValue == i }, what: "reply \(i)", seconds: 60)
                    #expect(reply["type"] == "ack")
                }
            }
            let digest = try await writer.request(["type": "digest", "target": "lobby"])
            let seq = try #require(digest["seq"]?.intValue)
            #expect(seq >= Self.writes / window, "one batch a window at least")
            try await fast.catchUp(to: seq)
            let residentAfter = try daemon.residentKiB

            let lastTitle = "\(Self.writes - 1)-\(padding)"
            #expect(fast.replica.digest == digest["digest"]?.stringValue)
            #expect(fast.log.map(\.seq) == Array(1...seq), "the fast subscriber got every batch, no gaps")
            #expect(
                residentAfter - residentBefore < 20_000,
                "RSS grew \(residentAfter - residentBefore) KiB for \(Self.writes * Self.titleBytes / 1024) KiB written")

            slow.write(lastTitle + "\n")
            let ended = try await offThePool { try slow.finish(within: 120) }
            let summary = try slow.nextLine()
            #expect(ended.status == 0, "slow consumer: \(summary) \(ended.stderr)\n\(daemon.stderr)")
            let parsed = try JSONParser().parse(summary)
            #expect(parsed["catchUp"] == .bool(true))
            #expect((parsed["batches"]?.intValue ?? Int.max) < Self.writes, "batches were replaced by a catch-up")
        }
    }
}
