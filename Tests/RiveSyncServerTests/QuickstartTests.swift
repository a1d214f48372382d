import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// `examples/quickstart.json` serves `examples/quickstart.riv` (written by `RiveFileWriter`),
/// and the daemon (in-process) runs its state machine: firing `celebrate` makes the listener fire the
/// artboard's event `celebrated` in the same batch.
@Suite struct QuickstartTests {
    @Test func theQuickstartStateMachineFiresItsEventWhenCelebrateFires() async throws {
        try await withInProcessDaemon(["--config", DaemonProcess.packageRoot + "/examples/quickstart.json"]) { daemon in
            let client = try await daemon.connected()
            let targets = try await client.request(["type": "listTargets"])
            #expect(targets["targets"]?.arrayValue?.first?["layers"]?.arrayValue?.first?["name"] == "Layer 1", "\(targets.jsonText)")
            let snapshot = try await client.request(["type": "subscribe", "target": "main"])
            #expect(snapshot["instances"]?.arrayValue?.first?["values"]?["title"] == "Quickstart", "\(snapshot.jsonText)")
            let ack = try await client.request(["type": "fire", "target": "main", "path": "celebrate"])
            #expect(ack["type"] == "ack", "\(ack.jsonText)")
            let batch = try await client.nextBatch("main")
            #expect(batch["events"] == [["name": "celebrated", "delay": 0]], "\(batch.jsonText)")
        }
    }
}
