import RiveSyncJSON
import RiveSyncModel

/// The presence messages of PROTOCOL.md §15, encoded for the daemon and decoded for clients.
/// (They become `ServerMessage` cases, with their schemas moved to `schemas/server/`, in the
/// commit that makes the daemon send them.)
public enum PresenceMessages {
    private static func reply(_ type: String, id: JSONValue?, _ fields: [(String, JSONValue)]) -> JSONValue {
        .object([("type", .string(type))] + (id.map { [("id", $0)] } ?? []) + fields)
    }

    /// The reply to `presenceJoin`; `resumed`: the key named a member that was already there.
    public static func joined(id: JSONValue?, target: String, member: MemberID, resumed: Bool) -> JSONValue {
        reply(
            "presenceJoined", id: id, [("target", .string(target)), ("member", .string("\(member)")), ("resumed", .bool(resumed))])
    }

    public static func updated(id: JSONValue?, target: String) -> JSONValue {
        reply("presenceUpdated", id: id, [("target", .string(target))])
    }

    public static func left(id: JSONValue?, target: String) -> JSONValue {
        reply("presenceLeft", id: id, [("target", .string(target))])
    }

    /// The reply to `presenceList`: the members as of the target's batch `seq`.
    public static func members(id: JSONValue?, target: String, seq: UInt64, _ entries: [PresenceEntry]) -> JSONValue {
        reply(
            "presenceMembers", id: id, [("target", .string(target)), ("seq", .number(Double(seq))), ("members", encode(entries))])
    }

    /// A `presence` message: the changes since the last one, after the target's batch `seq`.
    public static func presence(target: String, epoch: String, seq: UInt64, _ changes: [PresenceChange]) -> JSONValue {
        .object([
            ("type", "presence"), ("target", .string(target)), ("epoch", .string(epoch)), ("seq", .number(Double(seq))),
            ("changes", .array(changes.map(encode))),
        ])
    }

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
        guard let text = item["member"]?.stringValue, text.hasPrefix("p-"), let number = UInt64(text.dropFirst(2)) else {
            throw .badField(field, "members named p-N")
        }
        return MemberID(number)
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
