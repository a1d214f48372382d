import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// What the shell tells the connection core.
public enum ConnectionEvent: Sendable {
    case opened(ConnectionID, remoteAddress: String, origin: String?)
    case received(ConnectionID, bytes: [UInt8], isText: Bool)
    case closed(ConnectionID)
    case timerFired(ConnectionTimer)
    /// Background work a `.startBackground` asked for is done: the reply to send.
    case backgroundFinished(ConnectionID, reply: Frame)
    /// The file a `.startBackground(.loadFile)` sent is placed and loaded (its `placed` change
    /// came first): the reply is the `files` list, from the core's placement.
    case fileLoaded(ConnectionID, id: JSONValue?)
    /// The worker answered a routed `subscribe`: only one that succeeded counts toward
    /// `maxSubscriptions`.
    case subscribeAnswered(ConnectionID, target: String, paths: [String]?, succeeded: Bool)
    /// The daemon's directory changed (a file placed or released, a target name claimed,
    /// released or retired): the core's copy of the placement follows, so routing asks
    /// nothing. The shell delivers each change before any reply that follows it.
    case placed(PlacementChange)
    /// The configuration or tokens changed (a reload, or the port once the daemon listens):
    /// the core keeps the new settings, and every connection is checked against their tokens.
    /// Boxed (`indirect`): held inline, the settings made every event, a received message's
    /// too, 288 bytes, moved with `memcpy`.
    indirect case configured(ConnectionSettings)
    /// Whether the daemon's state may be behind (false: a cluster node that cannot read the
    /// cluster's log) or is fresh again (PROTOCOL.md §7.1): every connection that said hello
    /// is told, and while not fresh a later `hello` gets `freshness` false after `welcome`.
    case freshness(Bool)
    /// The shell read where the other shards' nodes and targets are (a cluster node of several
    /// shards, protocol/CLUSTER.md §6.3): `nodes` the URLs serving each shard, `targets` the
    /// targets of shards this node does not serve → their shard. `wrong_node` answers use them.
    case shardsRead(nodes: [String: [String]], targets: [String: String])
    /// Every open connection is closed (a cluster node whose lease ended: its acks can no
    /// longer be trusted, so its clients go on elsewhere, protocol/CLUSTER.md §3.2).
    case closeAll(code: CloseCode, reason: String)
}

/// A timer the core asked for (`.schedule`).
public enum ConnectionTimer: Hashable, Sendable {
    /// The connection must have said `hello` by now.
    case hello(ConnectionID)
}

/// What the core asks the shell to do, in order.
public enum ConnectionAction: Sendable {
    case send(Frame, to: Recipients)
    case close(ConnectionID, code: CloseCode, reason: String)
    /// One received message is dealt with (the transport's back-pressure credit).
    case handled(ConnectionID)
    /// Deliver `timerFired(timer)` at `at` (the injected clock's nanoseconds).
    case schedule(ConnectionTimer, at: UInt64)
    /// Hand a request to the worker that owns its file or target; the worker answers it and
    /// reports it handled. `sender`: what the connection may do (its identity's grants, as the
    /// core checked the request against them) and who sends it (PROTOCOL.md §17), one for all
    /// the connection's requests until the configuration changes.
    case route(ConnectionID, Request, worker: Int, sender: RequestSender)
    /// Run work off the dispatcher and report `backgroundFinished`; until then the
    /// connection's later messages wait, so replies and effects stay in request order.
    case startBackground(ConnectionID, BackgroundWork, id: JSONValue?)
    /// The connection is gone: the workers forget its subscriptions and pending acks.
    case forget(ConnectionID)
    case log(LogLevel, String, [(String, String)])
    /// Counters: a request read, an error sent.
    case countRequest
    case countError(code: WireErrorCode)
}

/// Work that must not run on the dispatcher.
public enum BackgroundWork: Sendable {
    /// Gathers a page of targets from every worker (those `identity` may see).
    case listTargets(TargetPage, identity: Identity)
    /// Hashes and stores an asset.
    case upload(kind: String, data: [UInt8], mediaType: String?)
    /// Parses a `.riv` or schema and loads it onto `worker` (durably, with a state directory).
    case loadFile(name: String, content: FileContent, worker: Int)
}

/// A log line's level.
public enum LogLevel: Sendable, Equatable {
    case debug, info, warning, error
}
