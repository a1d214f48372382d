import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport

/// A test client that keeps a replica of one whole target from its snapshot and batches,
/// decoded with the file's schema, and records every batch it applied.
final class ReplicaClient: @unchecked Sendable {
    let client: any RequestingClient
    let target: String
    let schema: FileSchema
    private(set) var replica: Replica
    /// `seq` and effects (as JSON text) of every batch applied, in order.
    private(set) var log: [(seq: Int, effects: String)] = []

    convenience init(daemon: DaemonProcess, file: String, target: String) async throws {
        try await self.init(client: try await TestClient.connected(to: daemon), file: file, target: target)
    }

    /// A replica client of the whole daemon in-process.
    convenience init(daemon: InProcessDaemon, file: String, target: String) async throws {
        try await self.init(client: try await daemon.connected(), file: file, target: target)
    }

    private init(client: any RequestingClient, file: String, target: String) async throws {
        self.client = client
        self.target = target
        let described = try await client.request(["type": "describe", "file": .string(file)])
        schema = try FileSchema(json: described["schema"] ?? .null)
        let snapshot = try await client.request(["type": "subscribe", "target": .string(target)])
        replica = Replica(snapshot: try StateCodec.decodeSnapshot(snapshot, target: target, schema: schema))
    }

    /// Applies every buffered batch of the target until the replica is at `seq`.
    func catchUp(to seq: Int) async throws {
        while replica.seq < UInt64(seq) {
            let batch = try await client.nextBatch(target)
            do {
                try apply(batch)
            } catch ReplicaError.outOfOrder(let expected, let received) {
                throw Gap(expected: expected, received: received, catchUps: caughtUpAt)
            }
        }
    }

    /// A batch came out of order: the daemon skipped batches (a catch-up snapshot of the
    /// target, listed by seq, stands in for them when it sent one).
    struct Gap: Error, CustomStringConvertible {
        var expected: UInt64
        var received: UInt64
        var catchUps: [Int]
        var description: String {
            "batch \(received) came when \(expected) was due; catch-up snapshots sent to this client at seq \(catchUps)"
        }
    }

    /// The seqs of the catch-up snapshots still buffered (a subscriber too slow for its queue).
    var caughtUpAt: [Int] {
        client.buffered.filter { $0["type"] == "snapshot" && $0["reason"] == "catchUp" }.compactMap { $0["seq"]?.intValue }
    }

    private func apply(_ json: JSONValue) throws {
        try replica.apply(try StateCodec.decodeBatch(json, schema: schema, replica: replica))
        log.append((json["seq"]?.intValue ?? -1, json["effects"]?.jsonText ?? ""))
    }
}
