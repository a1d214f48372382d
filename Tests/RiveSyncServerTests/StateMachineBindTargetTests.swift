import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A data bind's target written over the wire (PROTOCOL.md §8 `setBindTarget`), on
/// bidirectional_precedence.riv (the file of the `twoway_target_change` trace: on its artboard
/// `source_first`, binds 0 and 1 are two-way binds of a shape's x and y): checked when sent,
/// applied on the next advance, carried to the view model once for every subscriber as the
/// state machine's change, journaled and replayed after a restart.
@Suite(.serialized) struct StateMachineBindTargetTests {
    static let files = StateMachineDaemonTests.files([("twoway", "bidirectional_precedence.riv")])

    @Test func aBindTargetReachesEverySubscriberOnceAndIsReplayedAfterARestart() async throws {
        let journaled = try JournaledConfiguration(files: Self.files)
        defer { journaled.remove() }
        let daemon = try await DaemonProcess.start(["--config", journaled.path])
        let writer = try await TestClient.connected(to: daemon)
        let watcher = try await TestClient.connected(to: daemon)
        let created = try await writer.request([
            "type": "createStateMachine", "file": "twoway", "name": "twoway", "artboard": "source_first", "mode": "manual",
        ])
        #expect(created["type"] == "target", "\(created.jsonText)")
        _ = try await writer.request(["type": "advance", "target": "twoway"])
        for client in [writer, watcher] { _ = try await client.request(["type": "subscribe", "target": "twoway"]) }

        let mismatch = try await writer.request(["type": "setBindTarget", "target": "twoway", "bind": 1, "value": true])
        #expect(mismatch["code"] == "type_mismatch", "\(mismatch.jsonText)")
        #expect(mismatch["details"] == ["bind": 1, "expected": "number", "actual": "boolean"], "\(mismatch.jsonText)")
        let missing = try await writer.request(["type": "setBindTarget", "target": "twoway", "bind": 2, "value": 1])
        #expect(missing["code"] == "no_such_data_bind" && missing["details"] == ["target": "twoway", "bind": 2], "\(missing.jsonText)")

        writer.send(["type": "setBindTarget", "id": 50, "target": "twoway", "bind": 0, "value": 700])
        let advanced = try await writer.request(["type": "advance", "target": "twoway", "elapsed": 0.016])
        let ack = try await writer.next(where: { $0["id"]?.intValue == 50 }, what: "the setBindTarget's ack")
        #expect(ack["type"] == "ack" && ack["seq"] == advanced["seq"], "\(ack.jsonText)")
        for client in [writer, watcher] {
            let batch = try await client.next(
                where: { $0["type"] == "batch" && $0["seq"] == advanced["seq"] }, what: "the batch of the advance")
            let effects = batch["effects"]?.arrayValue ?? []
            #expect(effects.count == 1, "one change, once: \(batch.jsonText)")
            #expect(effects.first?["property"] == "x" && effects.first?["value"] == 700, "\(batch.jsonText)")
            #expect(effects.first?["by"] == "stateMachine", "\(batch.jsonText)")
        }
        let x = try await writer.request(["type": "get", "target": "twoway", "path": "x"])
        #expect(x["value"] == 700, "\(x.jsonText)")

        let before = try await StateMachineDaemonTests.observe(writer, "twoway")
        #expect(await daemon.stopped() == 0)
        #expect(try journaled.journals().contains { $0.contains(#""op":"setBindTarget""#) }, "the write is journaled")
        try await withDaemon(["--config", journaled.path]) { daemon in
            let again = try await TestClient.connected(to: daemon)
            #expect(try await StateMachineDaemonTests.observe(again, "twoway") == before, "\(daemon.stderr)")
            let replayed = try await again.request(["type": "get", "target": "twoway", "path": "x"])
            #expect(replayed["value"] == 700, "\(replayed.jsonText)")
        }
    }
}
