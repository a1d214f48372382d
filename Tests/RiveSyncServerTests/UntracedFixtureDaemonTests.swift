import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import Testing

/// The `.riv` files no handed-over trace uses (hidden traces may), through a real `rivesyncd`
/// as the trace runner drives one: the daemon loads the file, and for every artboard with a
/// state machine a client makes a manual target of its default state machine bound to the
/// default instance, subscribes, and advances it by frames and longer steps. Every request is
/// answered without an error, and after every advance a replica built from the snapshot and
/// the batches has the daemon's digest.
@Suite(.serialized) struct UntracedFixtureDaemonTests {
    static let files = [
        "component_stateful_vm_instance", "data_bind_blob_test", "data_bind_font_test", "data_binding_artboards_test",
        "data_binding_images_test", "inventory_demo_test_v2", "library_data_enum_test", "library_view_model_test", "list_to_path",
        "scripted_boolean", "scripted_color", "scripted_enum", "scripted_string", "stateful_list_props",
    ]
    static let advances: [Double] = [0, 0.016, 0.016, 0.016, 0.1, 0.5, 1]

    @Test(arguments: files)
    func everyArtboardsStateMachineRunsThroughTheDaemon(file: String) async throws {
        let config: JSONValue = [
            "files": StateMachineDaemonTests.files([(file, file + ".riv")]), "auth": ["allowAnonymous": "loopback"],
        ]
        try await withDaemon(["--config", try DaemonProcess.writeConfiguration(config.jsonText)]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            let described = try await client.request(["type": "describe", "file": .string(file)])
            let schema = try FileSchema(json: described["schema"] ?? .null)
            for (index, artboard) in schema.artboards.enumerated() where !artboard.stateMachines.isEmpty {
                let target = "machine-\(index)"
                let created = try await client.request([
                    "type": "createStateMachine", "file": .string(file), "name": .string(target), "artboard": .string(artboard.name),
                    "mode": "manual",
                ])
                #expect(created["type"] == "target", "\(file) \(artboard.name): \(created.jsonText)")
                let snapshot = try await client.request(["type": "subscribe", "target": .string(target)])
                var replica = Replica(snapshot: try StateCodec.decodeSnapshot(snapshot, target: target, schema: schema))
                for (step, seconds) in Self.advances.enumerated() {
                    let here = "\(file) \(artboard.name) advance \(step)"
                    let reply = try await client.request(["type": "advance", "target": .string(target), "elapsed": .number(seconds)])
                    #expect(reply["type"] == "advanced", "\(here): \(reply.jsonText)\n\(daemon.stderr)")
                    for batch in client.takeAll(where: { $0["type"] == "batch" && $0["target"]?.stringValue == target }) {
                        try replica.apply(try StateCodec.decodeBatch(batch, schema: schema, replica: replica))
                    }
                    let digest = try await client.request(["type": "digest", "target": .string(target)])
                    #expect(digest["digest"]?.stringValue == replica.digest, "\(here)")
                }
                #expect(client.takeAll(where: { $0["type"] == "error" }).isEmpty, "\(file) \(artboard.name)")
            }
        }
    }
}
