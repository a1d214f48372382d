import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A JSON schema file whose state machine has converters, an event and a data bind (SCHEMA.md's
/// example of "Data converters, events and data binds"), loaded by a real `rivesyncd`: the
/// state machine's converted writes, its layer change and its event reach subscribers in the
/// batch of the advance that made them.
@Suite(.serialized) struct StateMachineJSONBindDaemonTests {
    static func example() throws -> String { try SchemaDocument.example(under: "### Data converters, events and data binds") }

    @Test func convertedWritesLayersAndEventsReachTheBatch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-smjson-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }  // a leftover temporary directory is harmless
        try Data(try Self.example().utf8).write(to: URL(fileURLWithPath: directory + "/meter.schema.json"))
        let config: JSONValue = [
            "files": [["name": "meter", "path": .string(directory + "/meter.schema.json")]], "auth": ["allowAnonymous": "loopback"],
        ]
        try Data(config.serialized()).write(to: URL(fileURLWithPath: directory + "/config.json"))
        try await withDaemon(["--config", directory + "/config.json"]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            let created = try await client.request([
                "type": "createStateMachine", "file": "meter", "name": "meter", "artboard": "Meter", "stateMachine": "meter",
                "mode": "manual",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            let watcher = try await TestClient.connected(to: daemon)
            #expect(try await watcher.request(["type": "subscribe", "target": "meter"])["type"] == "snapshot")
            #expect(try await client.request(["type": "advance", "target": "meter", "elapsed": 0])["type"] == "advanced")
            let entered = try await watcher.nextBatch("meter")
            #expect(DemoStateMachineTests.layers(entered) == ["watch calm"], "\(entered.jsonText)")

            client.send(["type": "set", "id": 600, "target": "meter", "path": "level", "value": 8.6])
            #expect(try await client.request(["type": "advance", "target": "meter", "elapsed": 0.016])["type"] == "advanced")
            let batch = try await watcher.nextBatch("meter")
            #expect(batch["effects"]?.arrayValue?.first?["property"] == "level", "the client's write first: \(batch.jsonText)")
            #expect(DemoStateMachineTests.made(batch) == [#"set: label="9""#], "through the group converter: \(batch.jsonText)")
            #expect(DemoStateMachineTests.layers(batch) == ["watch loud"], "86 > 80 through the range mapper: \(batch.jsonText)")
            #expect(batch["events"]?.arrayValue?.map { $0["name"] } == ["overload"], "\(batch.jsonText)")

            #expect(try await client.request(["type": "advance", "target": "meter", "elapsed": 0.016])["type"] == "advanced")
            let counted = try await watcher.nextBatch("meter")
            #expect(DemoStateMachineTests.made(counted) == ["set: alarms=1"], "the event's listener: \(counted.jsonText)")
            let alarms = try await client.request(["type": "get", "target": "meter", "path": "alarms"])
            #expect(alarms["value"] == 1, "\(alarms.jsonText)")
        }
    }
}
