import RiveSyncJSON
import RiveSyncModel

/// The wire forms of a target's presence (PROTOCOL.md §15) inside `ServerMessage`s: member
/// lists (a snapshot's, `subscribed`'s and `presenceMembers`' `presence` / `members`) and the
/// changes of a `presence` message.
public enum PresenceMessages {
    /// Members as a snapshot's, `subscribed`'s or `presenceMembers`' `presence` / `members`.
    public static func encode(_ entries: [PresenceEntry]) -> JSONValue {
        .array(entries.map { .object([("member", .string("\($0.member)")), ("state", $0.state)]) })
    }

    public static func encode(_ change: PresenceChange) -> JSONValue {
        switch change {
        case .join(let member, let state): return .object([("op", "join"), ("member", .string("\(member)")), ("state", state)])
        case .update(let member, let state): return .object([("op", "update"), ("member", .string("\(member)")), ("state", state)])
        case .leave(let member, let reason):
            return .object([("op", "leave"), ("member", .string("\(member)")), ("reason", .string(reason.rawValue))])
        }
    }

    /// Reads a list of members (`bad_message` naming `field` when it is not one).
    public static func decodeEntries(_ json: JSONValue, field: String) throws(WireError) -> [PresenceEntry] {
        guard let items = json.arrayValue else { throw .badField(field, "an array of members") }
        var entries: [PresenceEntry] = []
        for item in items {
            guard let state = item["state"], state.objectValue != nil else { throw .badField(field, "members with an object state") }
            entries.append(PresenceEntry(member: try member(item, field: field), state: state))
        }
        return entries
    }

    /// Reads a `presence` message's `changes`.
    public static func decodeChanges(_ json: JSONValue) throws(WireError) -> [PresenceChange] {
        guard let items = json.arrayValue else { throw .badField("changes", "an array of changes") }
        var changes: [PresenceChange] = []
        for item in items {
            let id = try member(item, field: "changes")
            switch item["op"]?.stringValue {
            case "join", "update":
                guard let state = item["state"], state.objectValue != nil else {
                    throw .badField("changes", "a join or update with an object state")
                }
                changes.append(item["op"] == "join" ? .join(id, state: state) : .update(id, state: state))
            case "leave":
                guard let reason = item["reason"]?.stringValue.flatMap(LeaveReason.init(rawValue:)) else {
                    throw .badField("changes", "a leave with reason \"left\" or \"disconnected\"")
                }
                changes.append(.leave(id, reason: reason))
            default:
                throw .badField("changes", "op \"join\", \"update\" or \"leave\"")
            }
        }
        return changes
    }

    private static func member(_ item: JSONValue, field: String) throws(WireError) -> MemberID {
        guard let member = item["member"]?.stringValue.flatMap(MemberID.init(wire:)) else { throw .badField(field, "members named p-N") }
        return member
    }
}

extension WireError {
    /// A presence request the target's presence refused.
    public init(_ error: PresenceError, target: String) {
        switch error {
        case .notJoined:
            self.init(code: .notJoined, message: "not a member of the presence of '\(target)'", details: [("target", .string(target))])
        case .invalidKey:
            self = .badField(
                "key", "a string of \(PresenceLimits.keyBytes.lowerBound) to \(PresenceLimits.keyBytes.upperBound) bytes")
        case .invalidState: self = .badField("state", "a JSON object")
        case .limitExceeded(let limit, let value): self = .limit(limit, value)
        case .rateLimited(let limit):
            self.init(code: .rateLimited, message: "limit \(limit) reached", details: [("limit", .string(limit))])
        }
    }
}
