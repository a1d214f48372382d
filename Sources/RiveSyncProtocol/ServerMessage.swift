import RiveSyncJSON
import RiveSyncModel

/// Every message the daemon sends (PROTOCOL.md; one JSON Schema each in
/// `protocol/schemas/server/`). The daemon encodes them with `jsonValue` / `serialized()`,
/// clients and tests decode them with `init(_:types:)`: one codec for both sides.
///
/// `id` echoes the id of the request a message answers; messages that answer no request
/// (a `batch`, a catch-up `snapshot`, an `unsubscribed` of a deleted target, an `error` to
/// input without an id) have none.
public enum ServerMessage: Sendable, Equatable {
    /// The reply to `hello`.
    case welcome(Welcome, id: JSONValue?)
    /// The reply to `ping`.
    case pong(id: JSONValue?)
    /// The reply to `listFiles` and `loadFile`.
    case files([FileInfo], id: JSONValue?)
    /// The reply to a `loadFile` part that does not complete its file: the bytes of file
    /// `name` the daemon has of `size` (PROTOCOL.md §9).
    case filePart(name: String, received: Int, size: Int, id: JSONValue?)
    /// A page of `listTargets`.
    case targets(TargetPage, id: JSONValue?)
    /// The reply to `describe`: the file's schema document (SCHEMA.md).
    case schema(file: String, schema: JSONValue, id: JSONValue?)
    /// The reply to the `…Names` requests.
    case names([String], id: JSONValue?)
    /// The reply to `properties`.
    case properties([PropertyInfo], id: JSONValue?)
    /// The reply to `enums`.
    case enums([EnumInfo], id: JSONValue?)
    /// The reply to `defaultViewModelInfo`.
    case defaultViewModelInfo(viewModel: String, instance: String, id: JSONValue?)
    /// The reply to `createInstance`.
    case instance(CreatedInstance, id: JSONValue?)
    /// The reply to `createStateMachine` and `publish`.
    case target(TargetInfo, id: JSONValue?)
    /// The reply to `deleteTarget`.
    case targetDeleted(target: String, freed: [InstanceID], id: JSONValue?)
    /// The reply to `subscribe` with a cursor the daemon resumes from (the batches follow).
    case subscribed(Subscribed, id: JSONValue?)
    /// The reply to `unsubscribe`, or the end of a subscription (`reason` `deleted`).
    case unsubscribed(target: String, reason: UnsubscribeReason?, id: JSONValue?)
    /// A subscription's starting point: the whole target or the values at its paths.
    case snapshot(Snapshot, id: JSONValue?)
    /// The changes of one advance, as a subscriber sees them.
    case batch(Batch)
    /// A command applied.
    case ack(Ack, id: JSONValue?)
    /// The reply to `get`.
    case value(ValueReply, id: JSONValue?)
    /// The reply to `advance`: the target's seq after it, and whether its state machine is
    /// settled (needs no further advance).
    case advanced(target: String, seq: UInt64, settled: Bool = true, id: JSONValue?)
    /// The reply to `digest`.
    case digest(target: String, seq: UInt64, digest: String, id: JSONValue?)
    /// The reply to `upload`.
    case asset(AssetReference, id: JSONValue?)
    /// A request that failed, or input that is not a request.
    case error(WireError, id: JSONValue?)
    /// Whether the node's state may be behind the cluster's (PROTOCOL.md §7.1): `fresh`
    /// false once it cannot read the cluster's log, true once it has caught up again.
    case freshness(fresh: Bool)
    /// A target's presence changes since the last presence message (§15); no `id`.
    case presence(PresenceMessage)
    /// The reply to `presenceJoin`; `resumed`: the key named a member that was already there.
    case presenceJoined(target: String, member: MemberID, resumed: Bool, id: JSONValue?)
    /// The reply to `presenceUpdate`.
    case presenceUpdated(target: String, id: JSONValue?)
    /// The reply to `presenceLeave`.
    case presenceLeft(target: String, id: JSONValue?)
    /// The reply to `presenceList`: the members as of the target's batch `seq`, in join order.
    case presenceMembers(target: String, seq: UInt64, members: [PresenceEntry], id: JSONValue?)

    /// The message's `type` on the wire.
    public var type: ServerMessageType {
        switch self {
        case .welcome: .welcome
        case .pong: .pong
        case .files: .files
        case .filePart: .filePart
        case .targets: .targets
        case .schema: .schema
        case .names: .names
        case .properties: .properties
        case .enums: .enums
        case .defaultViewModelInfo: .defaultViewModelInfo
        case .instance: .instance
        case .target: .target
        case .targetDeleted: .targetDeleted
        case .subscribed: .subscribed
        case .unsubscribed: .unsubscribed
        case .snapshot: .snapshot
        case .batch: .batch
        case .ack: .ack
        case .value: .value
        case .advanced: .advanced
        case .digest: .digest
        case .asset: .asset
        case .error: .error
        case .freshness: .freshness
        case .presence: .presence
        case .presenceJoined: .presenceJoined
        case .presenceUpdated: .presenceUpdated
        case .presenceLeft: .presenceLeft
        case .presenceMembers: .presenceMembers
        }
    }
}

/// The `type` of every server message; the raw value is the wire string.
public enum ServerMessageType: String, Sendable, Hashable, CaseIterable {
    case welcome, pong, files, filePart, targets, schema, names, properties, enums, defaultViewModelInfo, instance, target
    case targetDeleted, subscribed, unsubscribed, snapshot, batch, ack, value, advanced, digest, asset, error, freshness
    case presence, presenceJoined, presenceUpdated, presenceLeft, presenceMembers
}
