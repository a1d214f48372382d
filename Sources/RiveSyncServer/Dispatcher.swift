import Dispatch
import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport
import RiveSyncVersion

/// Reads every incoming message in arrival order (one serial queue), keeps per-connection
/// state (identity, subscriptions, rate), checks each request against the connection's
/// grants, answers daemon-wide requests itself and routes the rest to the worker that owns
/// the file or target. Per connection, requests reach each worker in the order they were sent.
final class Dispatcher: @unchecked Sendable {
    let queue = DispatchQueue(label: "rivesyncd.dispatcher")
    let context: ServerContext
    let workers: [Worker]
    var sessions: [SessionID: SessionState] = [:]
    /// The tokens file as last read (replaced by `reloadTokens`); locked because `/metrics`
    /// checks tokens on the transport's service thread.
    let tokens: Locked<TokenTable>
    private var nextWorker = 0
    /// Set by `route` when the message being handled went to a worker (which then reports it
    /// handled); read by `received` right after.
    private var handedToWorker = false

    struct SessionState {
        var remoteAddress: String
        /// Set by a successful `hello`.
        var identity: Identity?
        /// Target → subscribed paths (`[""]`: the whole target), re-checked on reload.
        var subscriptions: [String: [String]] = [:]
        var windowStart: UInt64 = 0
        var windowCount = 0
    }

    /// Reads the tokens file of the configuration, if any.
    init(context: ServerContext, workers: [Worker]) throws(ConfigurationError) {
        self.context = context
        self.workers = workers
        let table = try context.configuration.auth.tokensFile.map { (path) throws(ConfigurationError) in
            do { return try TokenTable.read(path) } catch { throw .invalid("auth.tokensFile: \(error)") }
        }
        tokens = Locked(table ?? TokenTable())
    }

    /// A connection opened: one whose `Origin` is not allowed is closed with 1008 at once.
    func opened(_ session: SessionID, info: SessionInfo) {
        queue.async {
            guard self.admits(info) else {
                self.context.log(.warning, "origin refused", [("origin", info.origin ?? ""), ("remote", info.remoteAddress)])
                return self.context.submit([.close(session, code: CloseCode.policyViolation.rawValue, reason: "origin not allowed")])
            }
            self.sessions[session] = SessionState(remoteAddress: info.remoteAddress)
            let metadata = [("session", "\(session)"), ("remote", info.remoteAddress), ("origin", info.origin ?? "")]
            self.context.log(.debug, "connection opened", metadata)
            self.closeUnlessGreeted(session, after: self.context.limits.withLock { $0.helloTimeoutSeconds })
        }
    }

    /// Closes the session with 1008 if it has not said `hello` within `seconds`: a socket that
    /// never does must not hold a connection slot.
    private func closeUnlessGreeted(_ session: SessionID, after seconds: Int) {
        queue.asyncAfter(deadline: .now() + .seconds(seconds)) {
            guard let state = self.sessions[session], state.identity == nil else { return }
            self.context.log(.info, "hello timeout", [("remote", state.remoteAddress)])
            self.context.submit([.close(session, code: CloseCode.policyViolation.rawValue, reason: "no hello within \(seconds) s")])
        }
    }

    func closed(_ session: SessionID) {
        queue.async {
            if let state = self.sessions[session] {
                self.context.log(.debug, "connection closed", [("session", "\(session)"), ("remote", state.remoteAddress)])
            }
            self.sessions[session] = nil
            for worker in self.workers { worker.queue.async { worker.sessionClosed(session) } }
        }
    }

    /// Handles one message. Each ends in exactly one `.handled` for the transport's
    /// back-pressure (`maxPendingRequests`): sent here, or by the worker `route` handed it to.
    func received(_ session: SessionID, bytes: [UInt8], isText: Bool) {
        queue.async {
            self.handedToWorker = false
            self.handle(session, bytes: bytes, isText: isText)
            if !self.handedToWorker { self.context.submit([.handled(session)]) }
        }
    }

    private func handle(_ session: SessionID, bytes: [UInt8], isText: Bool) {
        guard sessions[session] != nil else { return }
        context.metrics.requests.add(1, ordering: .relaxed)
        guard isText else {
            context.submit([.close(session, code: CloseCode.protocolError.rawValue, reason: "binary frames are not part of the protocol")])
            return
        }
        let limits = context.limits.withLock { $0 }
        let json: JSONValue
        do {
            json = try JSONParser(maxDepth: limits.maxJSONDepth, maxBytes: limits.maxMessageBytes).parse(bytes)
        } catch .tooDeep(let limit) {
            return context.sendError(WireError(code: .tooDeep, message: "JSON nested deeper than \(limit)", details: [("limit", .number(Double(limit)))]), id: nil, to: session)
        } catch {
            return context.sendError(.badJSON("\(error)"), id: nil, to: session)
        }
        let request: Request
        switch Request.decode(json) {
        case .success(let decoded): request = decoded
        case .failure(let failure):
            // Before its hello a connection learns nothing but that hello comes first.
            let error = sessions[session]!.identity == nil && json["type"]?.stringValue != "hello" ? .helloRequired : failure.error
            return context.sendError(error, id: failure.id, to: session)
        }
        guard rateAllows(session, limit: limits.maxCommandsPerSecond) else {
            return context.sendError(
                WireError(code: .rateLimited, message: "more than \(limits.maxCommandsPerSecond) requests in one second",
                          details: [("limit", "maxCommandsPerSecond")]),
                id: request.id, to: session)
        }
        if case .hello(let versions, let token, _) = request.body {
            return hello(session, versions: versions, token: token, id: request.id, limits: limits)
        }
        guard let identity = sessions[session]!.identity else {
            return context.sendError(.helloRequired, id: request.id, to: session)
        }
        guard let grants = grants(of: identity) else { return refuse(session, id: request.id, reason: "token revoked") }
        if let denial = grants.denial(of: request.body) { return context.sendError(denial.error, id: request.id, to: session) }
        route(request, from: session, limits: limits, grants: grants)
    }

    private func rateAllows(_ session: SessionID, limit: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if now &- sessions[session]!.windowStart > 1_000_000_000 {
            sessions[session]!.windowStart = now
            sessions[session]!.windowCount = 0
        }
        sessions[session]!.windowCount += 1
        return sessions[session]!.windowCount <= limit
    }

    private func hello(_ session: SessionID, versions: [Int], token: String?, id: JSONValue?, limits: Limits) {
        guard sessions[session]!.identity == nil else {
            return context.sendError(WireError(code: .badMessage, message: "hello was already sent"), id: id, to: session)
        }
        guard versions.contains(1) else {
            context.sendError(WireError(code: .unsupportedVersion, message: "this daemon speaks protocol 1"), id: id, to: session)
            context.submit([.close(session, code: CloseCode.protocolError.rawValue, reason: "unsupported protocol version")])
            return
        }
        guard let identity = authenticate(token, remoteAddress: sessions[session]!.remoteAddress) else {
            return refuse(session, id: id, reason: token == nil ? "a token is required" : "unknown token")
        }
        sessions[session]!.identity = identity
        context.send(
            .welcome(
                ServerMessage.Welcome(
                    protocolVersion: 1, server: "rivesyncd/\(RiveSyncVersion.current)", epoch: context.epoch, limits: limits.wireLimits),
                id: id),
            to: session)
    }

    private func route(_ request: Request, from session: SessionID, limits: Limits, grants: Grants) {
        let worker: Int
        switch request.body {
        case .ping:
            return context.send(.pong(id: request.id), to: session)
        case .listFiles:
            return context.send(filesReply(id: request.id), to: session)
        case .listTargets(let page):
            return context.send(targetsPage(page, id: request.id, limits: limits, grants: grants), to: session)
        case .upload(let kind, let data, let mediaType):
            return upload(session, kind: kind, data: data, mediaType: mediaType, id: request.id, limit: limits.maxAssetBytes)
        case .loadFile(let name, let content):
            return loadFile(session, name: name, content: content, id: request.id)
        case .describe(let file), .viewModelNames(let file), .globalViewModelNames(let file), .instanceNames(let file, _),
            .properties(let file, _), .enums(let file), .artboardNames(let file), .stateMachineNames(let file, _),
            .defaultViewModelInfo(let file, _), .createInstance(let file, _, _):
            guard let location = context.directory.file(file) else { return unknownFile(file, id: request.id, session: session) }
            worker = location.worker
        case .createStateMachine(let stateMachine):
            guard let location = context.directory.file(stateMachine.file) else {
                return unknownFile(stateMachine.file, id: request.id, session: session)
            }
            worker = location.worker
        case .publish(let instance, _):
            guard let owner = context.directory.file(of: instance) else {
                return context.sendError(WireError(StateMachineError.unknownInstance(instance)), id: request.id, to: session)
            }
            worker = owner.location.worker
        case .subscribe(let target, let paths, _):
            guard let location = context.directory.target(target) else { return unknownTarget(target, id: request.id, session: session) }
            if sessions[session]!.subscriptions[target] == nil, sessions[session]!.subscriptions.count >= limits.maxSubscriptions {
                return context.sendError(.limit("maxSubscriptions", limits.maxSubscriptions), id: request.id, to: session)
            }
            sessions[session]!.subscriptions[target] = paths ?? [""]
            worker = location.worker
        case .unsubscribe(let target):
            sessions[session]!.subscriptions[target] = nil
            guard let location = context.directory.target(target) else { return unknownTarget(target, id: request.id, session: session) }
            worker = location.worker
        case .deleteTarget(let target):
            guard let location = context.directory.target(target) else { return unknownTarget(target, id: request.id, session: session) }
            for other in sessions.keys { sessions[other]!.subscriptions[target] = nil }
            worker = location.worker
        case .bind(let target, _, _), .get(let target, _), .set(let target, _, _), .fire(let target, _),
            .listAppend(let target, _, _), .listInsert(let target, _, _, _), .listRemoveAt(let target, _, _),
            .listRemove(let target, _, _), .listSwap(let target, _, _, _), .advance(let target), .digest(let target):
            guard let location = context.directory.target(target) else { return unknownTarget(target, id: request.id, session: session) }
            worker = location.worker
        case .hello:
            return
        }
        let owner = workers[worker]
        handedToWorker = true
        owner.queue.async {
            owner.handle(request, from: session, grants: grants)
            owner.context.submit([.handled(session)])
        }
    }

    /// One page of `listTargets`: the targets the grants show, by name, after `page.after`;
    /// at most `page.limit` (capped at `maxPageSize`); `next` (the last name) when more follow.
    private func targetsPage(_ page: TargetPage, id: JSONValue?, limits: Limits, grants: Grants) -> ServerMessage {
        let limit = min(page.limit ?? limits.maxPageSize, limits.maxPageSize)
        let found = workers.flatMap { worker in
            worker.queue.sync { worker.targetInfos(after: page.after, limit: limit + 1, shows: grants.shows) }
        }.sorted { $0.name < $1.name }
        let next = found.count > limit ? found[limit - 1].name : nil
        return .targets(ServerMessage.TargetPage(targets: found.prefix(limit).map(\.info), next: next), id: id)
    }

    private func unknownFile(_ file: String, id: JSONValue?, session: SessionID) {
        context.sendError(WireError(code: .unknownFile, message: "no file '\(file)'", details: [("file", .string(file))]), id: id, to: session)
    }

    private func unknownTarget(_ target: String, id: JSONValue?, session: SessionID) {
        context.sendError(WireError(StateMachineError.unknownTarget(target)), id: id, to: session)
    }

    private func filesReply(id: JSONValue?) -> ServerMessage {
        let configured = Set(context.configuration.files.map(\.name))
        let files = context.directory.files().map { file in
            ServerMessage.FileInfo(name: file.name, worker: file.worker, source: configured.contains(file.name) ? .config : .upload)
        }
        return .files(files, id: id)
    }

    private func upload(_ session: SessionID, kind: String, data: [UInt8], mediaType: String?, id: JSONValue?, limit: Int) {
        guard data.count <= limit else { return context.sendError(.limit("maxAssetBytes", limit), id: id, to: session) }
        do {
            let reference = try context.assets.add(kind: kind, data: data, mediaType: mediaType)
            if let state = context.stateDirectory {
                do {
                    try state.storeAsset(id: reference.id, mediaType: reference.mediaType, bytes: data)
                } catch {
                    return context.sendError(Worker.storageFailed(error), id: id, to: session)
                }
            }
            context.send(.asset(reference, id: id), to: session)
        } catch {
            context.sendError(WireError(code: .invalidAssetData, message: error.reason), id: id, to: session)
        }
    }

    /// Loads a file sent by a client onto the next worker (round-robin).
    private func loadFile(_ session: SessionID, name: String, content: FileContent, id: JSONValue?) {
        guard context.configuration.allowFileUploads else {
            return context.sendError(WireError(code: .forbidden, message: "this daemon does not accept files from clients"), id: id, to: session)
        }
        let schema: FileSchema
        do {
            switch content {
            case .riv(let bytes): schema = try RiveFileReader.read(bytes)
            case .schema(let json): schema = try FileSchema(json: json)
            }
        } catch let error as RiveFileError {
            return context.sendError(WireError(error.fileError), id: id, to: session)
        } catch {
            return context.sendError(WireError(error), id: id, to: session)
        }
        let workerIndex = nextWorker % workers.count
        nextWorker += 1
        guard let location = context.directory.reserveFile(name, worker: workerIndex) else {
            return context.sendError(WireError(code: .fileExists, message: "file '\(name)' already exists", details: [("file", .string(name))]), id: id, to: session)
        }
        let worker = workers[workerIndex]
        do {
            try worker.queue.sync { try worker.loadDurably(schema, as: name, number: location.number) }
        } catch {
            context.directory.releaseFile(name)
            return context.sendError(WireError(code: .storageFailed, message: "\(error)"), id: id, to: session)
        }
        context.log(.info, "file loaded by a client", [("file", name), ("worker", "\(workerIndex)")])
        context.send(filesReply(id: id), to: session)
    }
}
