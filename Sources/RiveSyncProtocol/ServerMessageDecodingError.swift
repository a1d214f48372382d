import RiveSyncJSON
import RiveSyncModel

/// Why a frame from the daemon is not a server message this client can read.
public enum ServerMessageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a JSON object with a string `type`.
    case notAMessage
    /// A `type` this client does not know; a newer daemon may send one (PROTOCOL.md §14).
    case unknownType(String, id: JSONValue?)
    /// A message of a known type with a missing or wrongly typed field, or a value its type
    /// cannot hold.
    case malformed(type: ServerMessageType, field: String, reason: String)
    /// An `error` whose code this client does not know: still an error (§14).
    case unknownErrorCode(String, message: String, id: JSONValue?)
    /// A `batch` or whole-target `snapshot` of a target whose schema the decoder was not given.
    case untypedTarget(type: ServerMessageType, target: String)
    /// A batch's `set` of an instance that neither the batch introduces nor the receiver's
    /// replica holds: the batch (`seq`) does not follow the receiver's replica.
    case untypedInstance(target: String, seq: UInt64, instance: InstanceID)

    public var description: String {
        switch self {
        case .notAMessage: "not a JSON object with a string 'type'"
        case .unknownType(let type, _): "unknown message type '\(type)'"
        case .malformed(let type, let field, let reason): "'\(type.rawValue)' message, field '\(field)': \(reason)"
        case .unknownErrorCode(let code, let message, _): "error with an unknown code '\(code)': \(message)"
        case .untypedTarget(let type, let target): "'\(type.rawValue)' of target '\(target)', whose schema is not known"
        case .untypedInstance(let target, let seq, let instance):
            "batch \(seq) of '\(target)' sets instance \(instance.rawValue), which the replica does not hold"
        }
    }
}
