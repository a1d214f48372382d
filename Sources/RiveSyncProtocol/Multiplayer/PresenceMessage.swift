import RiveSyncJSON
import RiveSyncModel

/// `presence` (PROTOCOL.md §15): a target's presence changes since the last presence message,
/// placed after the target's batch `seq` and before batch `seq + 1`.
public struct PresenceMessage: Sendable, Hashable {
    public var target: String
    public var epoch: String
    /// The target's last batch before this message.
    public var seq: UInt64
    /// The net change per member, in the order of each member's last change (never empty).
    public var changes: [PresenceChange]

    public init(target: String, epoch: String, seq: UInt64, changes: [PresenceChange]) {
        self.target = target
        self.epoch = epoch
        self.seq = seq
        self.changes = changes
    }

    var members: [(String, JSONValue)] {
        [
            ("target", .string(target)), ("epoch", .string(epoch)), ("seq", ServerMessage.number(seq)),
            ("changes", .array(changes.map(PresenceMessages.encode))),
        ]
    }

    init(_ r: ServerMessageReader) throws(ServerMessageDecodingError) {
        let json = try r.value("changes")
        let changes: [PresenceChange]
        do { changes = try PresenceMessages.decodeChanges(json) } catch { throw r.failure("changes", error.message) }
        guard !changes.isEmpty else { throw r.failure("changes", "expected at least one change") }
        self.init(target: try r.string("target"), epoch: try r.string("epoch"), seq: try r.count("seq"), changes: changes)
    }

    /// The member list at `field`.
    static func entries(_ r: ServerMessageReader, _ field: String) throws(ServerMessageDecodingError) -> [PresenceEntry] {
        let json = try r.value(field)
        do { return try PresenceMessages.decodeEntries(json, field: field) } catch { throw r.failure(field, error.message) }
    }

    /// The member list at `field`, nil when absent (a connection that may not see presence).
    static func optionalEntries(_ r: ServerMessageReader, _ field: String) throws(ServerMessageDecodingError) -> [PresenceEntry]? {
        r.json[field] == nil ? nil : try entries(r, field)
    }

    /// A member's name (`p-N`) at `field`.
    static func member(_ r: ServerMessageReader, _ field: String) throws(ServerMessageDecodingError) -> MemberID {
        guard let member = MemberID(wire: try r.string(field)) else { throw r.failure(field, "expected a member name p-N") }
        return member
    }
}

extension MemberID {
    /// Reads a member's wire name (`p-17`).
    public init?(wire text: String) {
        guard text.hasPrefix("p-"), let number = UInt64(text.dropFirst(2)) else { return nil }
        self.init(number)
    }
}
