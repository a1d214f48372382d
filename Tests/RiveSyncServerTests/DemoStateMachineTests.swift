import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import Testing

/// The demo's `Character/reactions` state machine, described in `demo.schema.json` (SCHEMA.md,
/// "State machines"), run by the daemon of `rivesyncd --demo` (in-process) through the same
/// evaluator as a `.riv` file's.
@Suite struct DemoStateMachineTests {
    /// The effects of a batch the state machine made, as `property: value`.
    static func made(_ batch: JSONValue) -> [String] {
        (batch["effects"]?.arrayValue ?? []).filter { $0["by"] == "stateMachine" }.map {
            "\($0["op"]?.stringValue ?? ""): \($0["property"]?.stringValue ?? "")=\($0["value"]?.jsonText ?? "")"
        }
    }

    static func layers(_ batch: JSONValue) -> [String] {
        (batch["layers"]?.arrayValue ?? []).map { "\($0["name"]?.stringValue ?? "") \($0["animation"]?.stringValue ?? "-")" }
    }

    /// A manual target of the demo's `Character/reactions`: a fired trigger moves layer `mood` at the
    /// advance that applies it, and its listener sets `face` and `color`, all in one batch with
    /// the state machine's changes marked `by: stateMachine`; a listener's fire (`no` fires
    /// `error`) runs the same way; a number condition picks `excited`.
    @Test func aFiredTriggerMovesTheMoodLayerAndItsListenerWrites() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            let created = try await client.request([
                "type": "createStateMachine", "file": "demo", "name": "stage", "artboard": "Character", "stateMachine": "reactions",
                "mode": "manual",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            #expect(created["layers"]?.arrayValue?.map { $0["kind"] } == ["entry", "entry"], "\(created.jsonText)")
            let watcher = try await daemon.connected()
            #expect(try await watcher.request(["type": "subscribe", "target": "stage"])["type"] == "snapshot")

            client.send(["type": "fire", "id": 500, "target": "stage", "path": "success"])
            let advanced = try await client.request(["type": "advance", "target": "stage", "elapsed": 0.016])
            #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
            let batch = try await watcher.nextBatch("stage")
            #expect(batch["effects"]?.arrayValue?.first?["property"] == "success", "the client's fire first: \(batch.jsonText)")
            #expect(batch["effects"]?.arrayValue?.first?["by"] == nil)
            #expect(Self.made(batch) == [#"set: face="happy""#, ##"set: color="#FF2E9E44""##], "\(batch.jsonText)")
            #expect(Self.layers(batch) == ["mood happy"], "\(batch.jsonText)")
            let face = try await client.request(["type": "get", "target": "stage", "path": "face"])
            #expect(face["value"] == "happy", "\(face.jsonText)")

            client.send(["type": "set", "id": 501, "target": "stage", "path": "mood", "value": 6])
            client.send(["type": "fire", "id": 502, "target": "stage", "path": "no"])
            #expect(try await client.request(["type": "advance", "target": "stage", "elapsed": 0.016])["type"] == "advanced")
            let shake = try await watcher.nextBatch("stage")
            #expect(Self.made(shake) == ["fire: error=", #"set: face="sad""#, ##"set: color="#FFD64545""##], "\(shake.jsonText)")
            #expect(Self.layers(shake) == ["mood sad"], "\(shake.jsonText)")

            client.send(["type": "fire", "id": 503, "target": "stage", "path": "success"])
            #expect(try await client.request(["type": "advance", "target": "stage", "elapsed": 0.016])["type"] == "advanced")
            let cheer = try await watcher.nextBatch("stage")
            #expect(Self.layers(cheer) == ["mood excited"], "mood ≥ 5 picks excited: \(cheer.jsonText)")

            client.send(["type": "fire", "id": 504, "target": "stage", "path": "enter"])
            #expect(try await client.request(["type": "advance", "target": "stage", "elapsed": 0.016])["type"] == "advanced")
            #expect(Self.layers(try await watcher.nextBatch("stage")) == ["presence shown"])
            let listed = try await client.request(["type": "listTargets"])
            let stage = listed["targets"]?.arrayValue?.first { $0["name"] == "stage" }
            #expect(stage?["layers"]?.arrayValue?.map { $0["animation"] ?? .null } == ["excited", "shown"], "\(listed.jsonText)")
        }
    }

    /// An auto target of `Character/reactions` leaves nothing to do at creation (its layers rest
    /// in their entry states) and reacts by itself to a fired trigger: the daemon's own advance
    /// (on its clock, moved only while the client waits) moves the mood layer.
    @Test func anAutoReactionsTargetReactsByItself() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            let created = try await client.request([
                "type": "createStateMachine", "file": "demo", "name": "moody", "artboard": "Character", "stateMachine": "reactions",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            #expect(try await client.request(["type": "subscribe", "target": "moody"])["type"] == "snapshot")
            #expect(try await client.request(["type": "fire", "target": "moody", "path": "error"])["type"] == "ack")
            var layers: [String] = []
            while !layers.contains("mood sad") { layers = Self.layers(try await client.nextBatch("moody")) }
            let listed = try await client.request(["type": "listTargets"])
            let moody = listed["targets"]?.arrayValue?.first { $0["name"] == "moody" }
            #expect(moody?["layers"]?.arrayValue?.first?["animation"] == "sad", "\(listed.jsonText)")
            let face = try await client.request(["type": "get", "target": "moody", "path": "face"])
            #expect(face["value"] == "sad", "\(face.jsonText)")
        }
    }

    /// The listener `say mood` writes `mood` into `face` through the converter `mood text` (a
    /// to-string rounding to whole numbers): a data bind with a converter, from a JSON schema.
    @Test func aMoodWriteSaysTheMoodThroughAConverter() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            let created = try await client.request([
                "type": "createStateMachine", "file": "demo", "name": "talk", "artboard": "Character", "stateMachine": "reactions",
                "mode": "manual",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            let watcher = try await daemon.connected()
            #expect(try await watcher.request(["type": "subscribe", "target": "talk"])["type"] == "snapshot")
            client.send(["type": "set", "id": 700, "target": "talk", "path": "mood", "value": 6.4])
            #expect(try await client.request(["type": "advance", "target": "talk", "elapsed": 0.016])["type"] == "advanced")
            let batch = try await watcher.nextBatch("talk")
            #expect(batch["effects"]?.arrayValue?.first?["property"] == "mood", "the client's write first: \(batch.jsonText)")
            #expect(Self.made(batch) == [#"set: face="6""#], "\(batch.jsonText)")
        }
    }
}
