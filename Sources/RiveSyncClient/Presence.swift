import Foundation
internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// A target's presence (PROTOCOL.md §15): who is looking at it now, with a small state each
/// (a name, a colour, a cursor, a selection). Ephemeral: never journaled, gone after a restart,
/// and a member whose connection is lost stays for the daemon's grace period — this client
/// rejoins with the same key when it reconnects, so it resumes its member instead of leaving.
///
/// ```swift
/// let presence = worker.presence(of: "room-7")
/// try await presence.join(["name": "Ana", "colour": "#FFE0457B"])
/// for await members in try await presence.members() { print(members.map(\.member)) }
/// ```
public final class Presence: Sendable {
    public let worker: Worker
    public let target: String
    /// Proves on a new connection that this is the same member; never sent to anyone else.
    let key: String

    init(worker: Worker, target: String) {
        self.worker = worker
        self.target = target
        key = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined(separator: "-")
    }

    private var session: Session { worker.session }

    /// Joins the target's presence with `state` (it must encode as a JSON object), or replaces
    /// the state if this client is a member already; returns the member's name (`p-17`).
    @discardableResult
    public func join(_ state: some Encodable) async throws -> String {
        let json = try Self.object(state)
        let reply = try await session.request(.presence(.join(target: target, key: key, state: json)), .stateMachine)
        guard case .presenceJoined(_, let member, _, _) = reply else { throw reply.unexpected(.presenceJoined) }
        session.presence.joined(target, key: key, state: json)
        return "\(member)"
    }

    /// Replaces this client's member state (no merge).
    public func update(_ state: some Encodable) async throws {
        let json = try Self.object(state)
        let reply = try await session.request(.presence(.update(target: target, state: json)), .stateMachine)
        guard case .presenceUpdated = reply else { throw reply.unexpected(.presenceUpdated) }
        session.presence.updated(target, state: json)
    }

    /// Leaves the target's presence (subscribers see a `left` leave).
    public func leave() async throws {
        session.presence.left(target)
        let reply = try await session.request(.presence(.leave(target: target)), .stateMachine)
        guard case .presenceLeft = reply else { throw reply.unexpected(.presenceLeft) }
    }

    /// The members as the daemon has them now, in join order (needs `seePresence`).
    public func list() async throws -> [PresenceMember] {
        let reply = try await session.request(.presence(.list(target: target)), .stateMachine)
        guard case .presenceMembers(_, _, let members, _) = reply else { throw reply.unexpected(.presenceMembers) }
        return members.map(PresenceMember.init)
    }

    /// The member list, once now and again after every change this client receives, in the
    /// daemon's order among the target's batches (the target is subscribed to if it was not).
    /// Without `seePresence` the list stays empty.
    public func members() async throws -> AsyncStream<[PresenceMember]> {
        _ = try await session.ensureSubscribed(target)
        return session.presence.stream(target)
    }

    /// The member list as of the last presence message this client applied.
    public var currentMembers: [PresenceMember] { session.presence.current(target) }

    static func object(_ state: some Encodable) throws -> JSONValue {
        let data = try JSONEncoder().encode(state)
        let json = try JSONParser().parse([UInt8](data))
        guard json.objectValue != nil else { throw StateMachineError.error("a presence state must encode as a JSON object") }
        return json
    }
}

/// One member of a target's presence.
public struct PresenceMember: Sendable, Hashable {
    /// The daemon's name for it (`p-17`), the same for every client.
    public let member: String
    /// Its state as JSON text (an object).
    public let stateJSON: String

    init(_ entry: PresenceEntry) {
        member = "\(entry.member)"
        stateJSON = entry.state.jsonText
    }

    /// The state decoded as `type`.
    public func state<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(stateJSON.utf8))
    }
}

extension Worker {
    /// The presence of a target; `join` on it to become a member.
    public func presence(of target: String) -> Presence { Presence(worker: self, target: target) }
}
