import RiveSyncJSON

/// The presence requests of PROTOCOL.md §15.
public enum PresenceRequest: Sendable, Hashable {
    /// Joins the target's presence (or resumes the member the key names).
    case join(target: String, key: String, state: JSONValue)
    /// Replaces this connection's member state.
    case update(target: String, state: JSONValue)
    case leave(target: String)
    /// The target's members.
    case list(target: String)

    /// The request types, by their `type`.
    public static let types: Set<String> = ["presenceJoin", "presenceUpdate", "presenceLeave", "presenceList"]

    public var type: String {
        switch self {
        case .join: return "presenceJoin"
        case .update: return "presenceUpdate"
        case .leave: return "presenceLeave"
        case .list: return "presenceList"
        }
    }

    public var target: String {
        switch self {
        case .join(let target, _, _), .update(let target, _), .leave(let target), .list(let target): return target
        }
    }

    /// Reads a presence request's body: `state` must be an object and `key` a string (its
    /// length is the presence's own check, `PresenceLimits.keyBytes`).
    public init(_ json: JSONValue) throws(WireError) {
        let fields = Fields(json: json)
        let type = try fields.string("type")
        let target = try fields.string("target")
        func state() throws(WireError) -> JSONValue {
            guard let state = json["state"], state.objectValue != nil else { throw .badField("state", "a JSON object") }
            return state
        }
        switch type {
        case "presenceJoin": self = .join(target: target, key: try fields.string("key"), state: try state())
        case "presenceUpdate": self = .update(target: target, state: try state())
        case "presenceLeave": self = .leave(target: target)
        case "presenceList": self = .list(target: target)
        default: throw .unknownType(type)
        }
    }

    /// The fields after `type` and `id` (see `Request.jsonValue`).
    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("target", .string(target))]
        switch self {
        case .join(_, let key, let state): fields += [("key", .string(key)), ("state", state)]
        case .update(_, let state): fields.append(("state", state))
        case .leave, .list: break
        }
        return fields
    }
}
