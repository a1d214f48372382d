import RiveSyncJSON
import RiveSyncModel

/// The types of one target's messages: its file's schema and the instances of a replica of it.
public struct ReplicaTypes: ServerMessageTypes {
    public var target: String
    public var schema: FileSchema
    public var replica: Replica?

    public init(target: String, schema: FileSchema, replica: Replica?) {
        self.target = target
        self.schema = schema
        self.replica = replica
    }

    public func schema(ofTarget target: String) -> FileSchema? { target == self.target ? schema : nil }

    public func viewModel(of instance: InstanceID, inTarget target: String) -> String? {
        target == self.target ? replica?.store[instance]?.viewModel : nil
    }
}

extension StateCodec {
    /// Reads a whole-target `snapshot` message (with `ServerMessage`'s decoder) into the
    /// snapshot a `Replica` starts from.
    public static func decodeSnapshot(_ json: JSONValue, target: String, schema: FileSchema) throws(WireError) -> TargetSnapshot {
        let message: ServerMessage
        do {
            message = try ServerMessage(json, types: ReplicaTypes(target: target, schema: schema, replica: nil))
        } catch {
            throw WireError(code: .badMessage, message: error.description)
        }
        guard case .snapshot(let snapshot, _) = message, snapshot.target == target,
            case .target(let bindings, let instances) = snapshot.content
        else {
            throw WireError(code: .badMessage, message: "expected a whole-target snapshot of '\(target)', got '\(message.type.rawValue)'")
        }
        return TargetSnapshot(target: target, seq: snapshot.seq, bindings: bindings, instances: instances)
    }

    /// Reads a `batch` message (with `ServerMessage`'s decoder) for `replica`: a `set` value
    /// is typed by the view model of its instance, found in the replica or in the batch's
    /// earlier `introduced` states.
    public static func decodeBatch(_ json: JSONValue, schema: FileSchema, replica: Replica) throws(WireError) -> ChangeBatch {
        let message: ServerMessage
        do {
            message = try ServerMessage(json, types: ReplicaTypes(target: replica.target, schema: schema, replica: replica))
        } catch {
            throw WireError(code: .badMessage, message: error.description)
        }
        guard case .batch(let batch) = message, batch.target == replica.target else {
            throw WireError(code: .badMessage, message: "expected a batch of '\(replica.target)', got '\(message.type.rawValue)'")
        }
        return batch.changeBatch
    }
}

extension ServerMessage.Batch {
    /// The batch as the model applies it to a replica.
    public var changeBatch: ChangeBatch {
        ChangeBatch(
            target: target, seq: seq, effects: effects, applied: commands, rejected: [], elapsed: elapsed, events: events, layers: layers,
            settled: settled)
    }
}
