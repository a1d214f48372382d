import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// A test client that keeps a replica of one whole target from its snapshot and batches,
/// decoded with the file's schema, and records every batch it applied.
final class ReplicaClient: @unchecked Sendable {
    let client: TestClient
    let target: String
    let schema: FileSchema
    private(set) var replica: Replica
    private var viewModels: [InstanceID: String] = [:]
    /// `seq` and effects (as JSON text) of every batch applied, in order.
    private(set) var log: [(seq: Int, effects: String)] = []

    init(daemon: DaemonProcess, file: String, target: String) async throws {
        client = try await TestClient.connected(to: daemon)
        self.target = target
        let described = try await client.request(["type": "describe", "file": .string(file)])
        schema = try FileSchema(json: described["schema"] ?? .null)
        let snapshot = try await client.request(["type": "subscribe", "target": .string(target)])
        var states: [InstanceState] = []
        for state in snapshot["instances"]?.arrayValue ?? [] { states.append(try StateCodec.decodeState(state, schema: schema)) }
        replica = Replica(
            snapshot: TargetSnapshot(
                target: target, seq: UInt64(snapshot["seq"]?.intValue ?? 0), bindings: try StateCodec.decodeBindings(snapshot["bindings"]),
                instances: states))
        for state in states { viewModels[state.id] = state.viewModel }
    }

    /// Applies every buffered batch of the target until the replica is at `seq`.
    func catchUp(to seq: Int) async throws {
        while replica.seq < UInt64(seq) {
            let batch = try await client.nextBatch(target)
            try apply(batch)
        }
    }

    private func apply(_ json: JSONValue) throws {
        var effects: [Effect] = []
        for effect in json["effects"]?.arrayValue ?? [] {
            let decoded = try StateCodec.decodeEffect(effect, schema: schema) { [viewModels] in viewModels[$0] }
            switch decoded.change {
            case .set(_, _, _, let introduced), .listInsert(_, _, _, _, let introduced), .bind(_, _, let introduced):
                for state in introduced { viewModels[state.id] = state.viewModel }
            default:
                break
            }
            effects.append(decoded)
        }
        let seq = json["seq"]?.intValue ?? -1
        try replica.apply(ChangeBatch(target: target, seq: UInt64(seq), effects: effects, applied: [], rejected: []))
        log.append((seq, json["effects"]?.jsonText ?? ""))
    }
}
