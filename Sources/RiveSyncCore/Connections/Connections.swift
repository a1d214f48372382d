import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// The dispatcher's logic as a state machine: every connection's state (identity, rate,
/// subscriptions, request order), fed events and answering actions. It decodes, authorises
/// and routes; work that would block runs in the background while the connection's later
/// messages wait here, so a connection's replies and effects stay in request order and no
/// other connection waits. Pure: the clock comes from `environment`; the configuration and
/// tokens (`settings`) and where files and targets live (`placement`) are its own copies, kept
/// by events.
public struct Connections {
    let environment: any ConnectionEnvironment
    /// The configuration and tokens as the shell last sent them (`configured`).
    public private(set) var settings: ConnectionSettings
    var states: [ConnectionID: CopiedOnWrite<State>] = [:]
    /// Where files and targets live, as the directory's changes told it (`placed`).
    public private(set) var placement: Placement
    /// How many workers the daemon has (a client's files go to each in turn).
    let workers: Int
    /// The worker the next client's file goes to.
    var lastFileWorker: Int
    /// False while the daemon's state may be behind (the last `freshness` event); a single
    /// daemon's never is.
    public private(set) var stateIsFresh = true

    struct State {
        var remoteAddress: String
        /// Set by a successful `hello`.
        var identity: Identity?
        /// The `hello`'s `client` (free text), for the authors of this connection's commands.
        var client: String?
        /// Its identity's grants and the sender its requests are routed with, as the settings
        /// give them: looked up at its first request after `hello` and kept until the settings
        /// change (`configured` drops them), not looked up and copied for every request.
        var credentials: Credentials?
        /// Target → subscribed paths (`[""]`: the whole target), as the workers confirmed.
        var subscriptions: [String: [String]] = [:]
        /// Subscribes routed and not yet answered, per target (they count toward the limit
        /// meanwhile). Workers answer in request order.
        var subscribing: [String: Int] = [:]
        /// Of those, how many were overtaken by an unsubscribe or a delete: their answers no
        /// longer make a subscription.
        var overtaken: [String: Int] = [:]
        var window = RateWindow()
        /// Background work in flight for this connection.
        var busy = false
        /// Messages that arrived while `busy`, oldest first.
        var waiting: [(bytes: [UInt8], isText: Bool)] = []
        /// The `.riv` file this connection is sending in parts (`loadFile` with `offset`).
        var fileInParts: FileInParts?
    }

    /// A core with the daemon's `settings` at start, that routes by `placement` (the
    /// directory's as it is now) and the changes that follow it, and places clients' files on
    /// `workers` workers in turn, from `firstFileWorker` on (a daemon with a core per service
    /// thread starts each at its own).
    public init(
        environment: any ConnectionEnvironment, settings: ConnectionSettings, placement: Placement = Placement(), workers: Int = 1,
        firstFileWorker: Int = 0
    ) {
        self.environment = environment
        self.settings = settings
        self.placement = placement
        self.workers = max(workers, 1)
        lastFileWorker = max(firstFileWorker, 0) % max(workers, 1)
    }

    /// Open connections.
    public var count: Int { states.count }

    /// What a connection's requests are checked against and routed with (`State.credentials`):
    /// a class, so that reading them takes one reference, not the grants' and the sender's.
    final class Credentials {
        let grants: Grants
        let sender: RequestSender

        init(grants: Grants, sender: RequestSender) {
            self.grants = grants
            self.sender = sender
        }
    }

    /// The credentials of the connection whose state is at `state` in `states`, an identity
    /// of `identity`: kept ones, or looked up in the settings and kept; nil when its token
    /// gives nothing any more (revoked).
    mutating func credentials(at state: StateIndex, identity: Identity) -> Credentials? {
        if let kept = states.values[state].value.credentials { return kept }
        guard let grants = settings.access.grants(of: identity) else { return nil }
        let credentials = Credentials(grants: grants, sender: RequestSender(grants: grants, author: author(at: state)))
        states.values[state].value.credentials = credentials
        return credentials
    }

    /// Who sends a connection's commands (the connection at `state` in `states`): its `hello`
    /// `client` and its token's name.
    func author(at state: StateIndex) -> Author {
        var token: String?
        if case .token(let name, _)? = states.values[state].value.identity { token = name }
        return Author(client: states.values[state].value.client, token: token)
    }

    /// Where a connection's state is in `states`: valid until a connection is added or
    /// removed. A message's handling finds its connection once and goes by index (each
    /// lookup hashes the connection's id).
    typealias StateIndex = [ConnectionID: CopiedOnWrite<State>].Index

    /// The subscriptions the workers confirmed for a connection (target → paths).
    public func subscriptions(of connection: ConnectionID) -> [String: [String]] { states[connection]?.value.subscriptions ?? [:] }

    /// Handles one event (taken, not copied); returns what the shell must do, in order.
    public mutating func handle(_ event: consuming ConnectionEvent) -> [ConnectionAction] {
        var out = ActionList<ConnectionAction>()
        handle(event, into: &out)
        return out.actions
    }

    /// Handles one event (taken, not copied): appends what the shell must do, in order, to
    /// `out` (the shell's list, kept from message to message: no allocation per message).
    public mutating func handle(_ event: consuming ConnectionEvent, into out: inout ActionList<ConnectionAction>) {
        switch consume event {
        case .opened(let connection, let remote, let origin):
            guard settings.origins.admits(origin) else {
                out.append(.log(.warning, "origin refused", [("origin", origin ?? ""), ("remote", remote)]))
                out.append(.close(connection, code: .policyViolation, reason: "origin not allowed"))
                break
            }
            states[connection] = CopiedOnWrite(State(remoteAddress: remote))
            out.append(.log(.debug, "connection opened", [("session", "\(connection)"), ("remote", remote), ("origin", origin ?? "")]))
            let seconds = settings.limits.helloTimeoutSeconds
            out.append(.schedule(.hello(connection), at: environment.now() &+ UInt64(seconds) * 1_000_000_000))
        case .received(let connection, let bytes, let isText):
            guard let state = states.index(forKey: connection) else {
                out.append(.handled(connection))
                break
            }
            if states.values[state].value.busy {
                states.values[state].value.waiting.append((bytes, isText))
                break
            }
            receive(connection, at: state, bytes: bytes, isText: isText, into: &out)
        case .closed(let connection):
            if let state = states.removeValue(forKey: connection)?.value {
                out.append(.log(.debug, "connection closed", [("session", "\(connection)"), ("remote", state.remoteAddress)]))
            }
            out.append(.forget(connection))
        case .timerFired(.hello(let connection)):
            guard let state = states[connection]?.value, state.identity == nil else { break }
            out.append(.log(.info, "hello timeout", [("remote", state.remoteAddress)]))
            out.append(.close(connection, code: .policyViolation, reason: "no hello within \(settings.limits.helloTimeoutSeconds) s"))
        case .backgroundFinished(let connection, let reply):
            finished(connection, reply: reply, into: &out)
        case .fileLoaded(let connection, let id):
            finished(connection, reply: frame(files(id: id)), into: &out)
        case .subscribeAnswered(let connection, let target, let paths, let succeeded):
            guard states[connection] != nil else { break }
            states[connection]!.value.answered(target, paths: paths, succeeded: succeeded)
        case .placed(let change):
            placement.apply(change)
            // A deleted target (through this core, another core or another node) ends every
            // subscription to it the workers confirmed. Its worker told the directory before it
            // answered any later subscribe, and the answers come after this (in order): only
            // subscriptions to the deleted target are ended, none in flight is overtaken.
            if case .targetNames(.retire(let name, _)) = change {
                for connection in states.keys where states[connection]!.value.subscriptions[name] != nil {
                    states[connection]!.value.subscriptions[name] = nil
                }
            }
        case .configured(let new):
            settings = new
            for state in states.values.indices { states.values[state].value.credentials = nil }
            recheck(into: &out)
        case .shardsRead(let nodes, let targets):
            settings.shards?.nodes = nodes
            settings.shards?.targets = targets
        case .freshness(let fresh):
            stateIsFresh = fresh
            let greeted = greeted
            if !greeted.isEmpty { out.append(.send(frame(.freshness(fresh: fresh)), to: Recipients(greeted))) }
        case .closeAll(let code, let reason):
            for connection in open { out.append(.close(connection, code: code, reason: reason)) }
        }
    }

    /// One message of a connection that is not waiting for background work: exactly one
    /// `.handled` follows, here or from the worker it is routed to (or when its background
    /// work is done). `state`: the connection's in `states`.
    private mutating func receive(
        _ connection: ConnectionID, at state: StateIndex, bytes: [UInt8], isText: Bool, into out: inout ActionList<ConnectionAction>
    ) {
        switch process(connection, at: state, bytes: bytes, isText: isText, into: &out) {
        case .answered: out.append(.handled(connection))
        case .routed: break
        case .background: states[connection]?.value.busy = true
        }
    }

    /// A connection's background work is done: its reply, then the messages that waited.
    private mutating func finished(_ connection: ConnectionID, reply: Frame, into out: inout ActionList<ConnectionAction>) {
        out.append(.send(reply, to: Recipients(connection)))
        out.append(.handled(connection))
        guard states[connection] != nil else { return }
        states[connection]!.value.busy = false
        while let state = states.index(forKey: connection), !states.values[state].value.busy,
            !states.values[state].value.waiting.isEmpty
        {
            let next = states.values[state].value.waiting.removeFirst()
            receive(connection, at: state, bytes: next.bytes, isText: next.isText, into: &out)
        }
    }

    enum Outcome { case answered, routed, background }

    /// `state`: the connection's in `states` (nothing here adds or removes a connection until
    /// the outcome is decided: `refuse`, which removes it, is the last thing done with it).
    private mutating func process(
        _ connection: ConnectionID, at state: StateIndex, bytes: [UInt8], isText: Bool, into out: inout ActionList<ConnectionAction>
    ) -> Outcome {
        out.append(.countRequest)
        guard isText else {
            out.append(.close(connection, code: .protocolError, reason: "binary frames are not part of the protocol"))
            return .answered
        }
        let limits = settings.limits
        let parser = JSONParser(maxDepth: limits.maxJSONDepth, maxBytes: limits.maxMessageBytes)
        let request: Request
        if let set = Request.plainSet(bytes, parser: parser) {
            // The usual `set`, read without a JSON tree: what `decode` reads from one.
            request = set
        } else {
            let json: JSONValue
            do {
                json = try parser.parse(bytes)
            } catch .tooDeep(let limit) {
                let error = WireError(
                    code: .tooDeep, message: "JSON nested deeper than \(limit)", details: [("limit", .number(Double(limit)))])
                return fail(connection, error, id: nil, into: &out)
            } catch {
                return fail(connection, .badJSON("\(error)"), id: nil, into: &out)
            }
            let decoded = Request.decode(json, maxTransactionCommands: limits.maxTransactionCommands)
            // Taken out of the result, not copied.
            switch consume decoded {
            case .success(let decoded): request = decoded
            case .failure(let failure):
                // Before its hello a connection learns nothing but that hello comes first.
                let greeted = states.values[state].value.identity != nil
                let error = !greeted && json["type"]?.stringValue != "hello" ? .helloRequired : failure.error
                return fail(connection, error, id: failure.id, into: &out)
            }
        }
        guard states.values[state].value.window.admits(at: environment.now(), limit: limits.maxCommandsPerSecond) else {
            let error = WireError(
                code: .rateLimited, message: "more than \(limits.maxCommandsPerSecond) requests in one second",
                details: [("limit", "maxCommandsPerSecond")])
            return fail(connection, error, id: request.id, into: &out)
        }
        let tooLong = ClientStrings.violation(in: request.body)
        if case .hello(let versions, let token, let client) = request.body {
            if let tooLong { return fail(connection, tooLong, id: request.id, into: &out) }
            return hello(connection, versions: versions, token: token, client: client, id: request.id, into: &out)
        }
        guard let identity = states.values[state].value.identity else {
            return fail(connection, .helloRequired, id: request.id, into: &out)
        }
        if let tooLong { return fail(connection, tooLong, id: request.id, into: &out) }
        // A transaction's commands each need their own permission (PROTOCOL.md §16).
        var transaction: TransactionRequest?
        if case .transaction(let t) = request.body { transaction = t }
        guard let credentials = credentials(at: state, identity: identity) else {
            refuse(connection, id: request.id, reason: "token revoked", into: &out)
            return .answered
        }
        // A single request is checked where it lies (an array of it copied it, and allocated).
        if let transaction {
            for (index, body) in transaction.commands.enumerated() {
                guard let denial = credentials.grants.denial(of: body) else { continue }
                return fail(connection, denial.error.inCommand(index), id: request.id, into: &out)
            }
        } else if let denial = credentials.grants.denial(of: request.body) {
            return fail(connection, denial.error, id: request.id, into: &out)
        }
        // A daemon that accepts no files refuses them here, before their bytes (or a `.riv`
        // file's parts) are kept.
        if case .loadFile = request.body, !settings.acceptsFiles {
            return fail(
                connection, WireError(code: .forbidden, message: "this daemon does not accept files from clients"), id: request.id,
                into: &out)
        }
        // Moved into the route, not copied.
        return route(connection, at: state, consume request, identity: identity, sender: credentials.sender, into: &out)
    }

    private mutating func hello(
        _ connection: ConnectionID, versions: [Int], token: String?, client: String?, id: JSONValue?,
        into out: inout ActionList<ConnectionAction>
    ) -> Outcome {
        guard states[connection]!.value.identity == nil else {
            return fail(connection, WireError(code: .badMessage, message: "hello was already sent"), id: id, into: &out)
        }
        guard versions.contains(1) else {
            _ = fail(connection, WireError(code: .unsupportedVersion, message: "this daemon speaks protocol 1"), id: id, into: &out)
            out.append(.close(connection, code: .protocolError, reason: "unsupported protocol version"))
            return .answered
        }
        guard let identity = settings.access.identity(token: token, remoteAddress: states[connection]!.value.remoteAddress) else {
            refuse(connection, id: id, reason: token == nil ? "a token is required" : "unknown token", into: &out)
            return .answered
        }
        states[connection]!.value.identity = identity
        states[connection]!.value.client = client
        out.append(.send(frame(.welcome(settings.welcome, id: id)), to: Recipients(connection)))
        if !stateIsFresh { out.append(.send(frame(.freshness(fresh: false)), to: Recipients(connection))) }
        return .answered
    }

    /// Sends an error reply (and counts it).
    mutating func fail(_ connection: ConnectionID, _ error: WireError, id: JSONValue?, into out: inout ActionList<ConnectionAction>)
        -> Outcome
    {
        out.append(.countError(code: error.code))
        out.append(.send(frame(.error(error, id: id)), to: Recipients(connection)))
        return .answered
    }

    /// Answers `unauthorized`, closes with 1008 and forgets the connection at once: its later
    /// messages are ignored and its subscriptions get no more batches.
    mutating func refuse(_ connection: ConnectionID, id: JSONValue?, reason: String, into out: inout ActionList<ConnectionAction>) {
        var metadata = [("reason", reason), ("remote", states[connection]?.value.remoteAddress ?? "")]
        if case .token(let name, _)? = states[connection]?.value.identity { metadata.append(("token", name)) }
        out.append(.log(.warning, "connection refused", metadata))
        _ = fail(connection, WireError(code: .unauthorized, message: reason), id: id, into: &out)
        out.append(.close(connection, code: .policyViolation, reason: "unauthorized"))
        states[connection] = nil
        out.append(.forget(connection))
    }

    /// `message` encoded once, with the shell's headroom in front.
    func frame(_ message: ServerMessage) -> Frame { Frame(message, headroom: settings.frameHeadroom) }
}

extension Connections.State {
    /// Ends a subscription, and the one any subscribe in flight would make.
    mutating func unsubscribe(_ target: String) {
        subscriptions[target] = nil
        if let inFlight = subscribing[target] { overtaken[target] = inFlight }
    }

    /// A worker answered the oldest subscribe in flight for `target`.
    mutating func answered(_ target: String, paths: [String]?, succeeded: Bool) {
        guard let inFlight = subscribing[target] else { return }
        subscribing[target] = inFlight > 1 ? inFlight - 1 : nil
        if let skip = overtaken[target] {
            overtaken[target] = skip > 1 ? skip - 1 : nil
        } else if succeeded {
            subscriptions[target] = paths ?? [""]
        }
    }
}
