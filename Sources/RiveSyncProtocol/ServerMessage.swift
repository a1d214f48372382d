import RiveSyncJSON
import RiveSyncModel

/// Builders for the messages the daemon sends (PROTOCOL.md). Each returns the message as JSON;
/// `JSONValue.serialized()` gives the frame's bytes.
public enum ServerMessage {
    /// A reply of `type` to the request `id`, with the reply's fields.
    public static func reply(_ type: String, id: JSONValue?, _ fields: [(String, JSONValue)]) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(type))]
        if let id { members.append(("id", id)) }
        members.append(contentsOf: fields)
        return .object(members)
    }

    /// A batch as a whole-target subscriber receives it, with `effects` already filtered.
    public static func batch(_ batch: ChangeBatch, epoch: String, effects: [Effect], commands: [UInt64]) -> JSONValue {
        .object([
            ("type", "batch"), ("target", .string(batch.target)), ("epoch", .string(epoch)),
            ("seq", .number(Double(batch.seq))), ("effects", .array(effects.map(StateCodec.encode))),
            ("commands", .array(commands.map { .number(Double($0)) })),
        ])
    }

    /// A whole-target snapshot (bindings and every reachable instance).
    public static func snapshot(_ snapshot: TargetSnapshot, id: JSONValue?, epoch: String, reason: String?) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("target", .string(snapshot.target)), ("epoch", .string(epoch)), ("seq", .number(Double(snapshot.seq))),
            ("bindings", .array(snapshot.bindings.map(StateCodec.encode))),
            ("instances", .array(snapshot.instances.map(StateCodec.encode))),
        ]
        if let reason { fields.append(("reason", .string(reason))) }
        return reply("snapshot", id: id, fields)
    }
}
