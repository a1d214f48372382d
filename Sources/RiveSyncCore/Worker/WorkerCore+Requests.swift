import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// Handles a request routed to this worker (on the queue). Every request gets exactly one
    /// reply; commands get theirs after the advance that applies them.
    /// Returns false when the request was refused at once.
    func handle(_ request: Request, from session: ConnectionID, grants: any RequestGrants, author: Author?) -> Bool {
        do {
            if let reply = try reply(to: request.body, id: request.id, session: session, grants: grants, author: author) {
                send(reply, to: session)
            }
            return true
        } catch {
            sendError(grants.visible(error, for: request.body), id: request.id, to: session)
            return false
        }
    }

    /// The reply to send now, or nil when the reply comes later (commands, changes waiting for
    /// the log) or was sent already.
    private func reply(
        to body: ClientRequest, id: JSONValue?, session: ConnectionID, grants: any RequestGrants, author: Author?
    ) throws(WireError) -> ServerMessage? {
        func request(_ reply: RequestWaiter.Reply, reserved: String? = nil) -> RequestWaiter {
            RequestWaiter(connection: session, id: id, body: body, grants: grants, reply: reply, reserved: reserved)
        }
        func waiter(_ reply: RequestWaiter.Reply, reserved: String? = nil) -> Waiter { .request(request(reply, reserved: reserved)) }
        func names(_ list: [String]) -> ServerMessage { .names(list, id: id) }
        func schema(_ file: String) throws(WireError) -> FileSchema { try runtime(file).schema }
        func model<T>(_ body: () throws -> T) throws(WireError) -> T {
            do { return try body() } catch { throw WireError(error) }
        }
        switch body {
        case .describe(let file):
            // Authored values only for connections that could create instances from them anyway.
            let described = try schema(file).jsonValue(authoredValues: grants.mayCreate)
            return .schema(file: file, schema: described, id: id)
        case .viewModelNames(let file):
            return names(try schema(file).viewModelNames)
        case .globalViewModelNames(let file):
            return names(try schema(file).globalViewModelNames)
        case .instanceNames(let file, let viewModel):
            let s = try schema(file)
            return names(try model { try s.instanceNames(of: viewModel) })
        case .properties(let file, let viewModel):
            let s = try schema(file)
            let properties = try model { try s.properties(of: viewModel) }
            return .properties(properties.map { ServerMessage.PropertyInfo(name: $0.name, type: $0.type, metaData: $0.metaData) }, id: id)
        case .enums(let file):
            return .enums(try schema(file).enums.map { ServerMessage.EnumInfo(name: $0.name, values: $0.values) }, id: id)
        case .artboardNames(let file):
            return names(try schema(file).artboardNames)
        case .stateMachineNames(let file, let artboard):
            let s = try schema(file)
            return names(try model { try s.artboard(named: artboard).stateMachines })
        case .defaultViewModelInfo(let file, let artboard):
            let s = try schema(file)
            let info = try model { try s.defaultViewModelInfo(for: artboard) }
            return .defaultViewModelInfo(viewModel: info.viewModelName, instance: info.instanceName, id: id)
        case .createInstance(let file, let source, let publish):
            try checkFile(file)
            // The name is held from the request on: taken, or a full daemon, fails before the
            // instance is made, and nothing can take it before the publish.
            if let publish {
                claim(
                    publish, file: file, limit: settings.limits.maxTargets, thenPropose: .createInstance(source),
                    for: .request(request(.instance(publish: publish), reserved: publish)))
            } else {
                propose(.createInstance(source), file: file, waiter(.instance(publish: nil)))
            }
            return nil
        case .createStateMachine(let stateMachine):
            let (record, name) = try stateMachineRecord(stateMachine, grants: grants)
            claim(
                name, file: stateMachine.file, limit: settings.limits.maxTargets, thenPropose: record,
                for: .request(request(.target, reserved: name)))
            return nil
        case .publish(let instance, let name):
            guard let owner = owner(of: instance) else {
                throw WireError(StateMachineError.unknownInstance(instance))
            }
            try checkAttach(instance, in: owner.name, to: name, at: "", grants: grants)
            claim(
                name, file: owner.name, limit: settings.limits.maxTargets, thenPropose: .publish(instance: instance, name: name),
                for: .request(request(.target, reserved: name)))
            return nil
        case .deleteTarget(let target):
            let file = try record(target).file
            propose(.deleteTarget(target), file: file, waiter(.targetDeleted))
            return nil
        case .subscribe(let target, let paths, let cursor):
            try subscribe(session, to: target, paths: paths, cursor: cursor, id: id, presence: grants.seesPresence(of: target))
            return nil
        case .unsubscribe(let target):
            _ = try record(target)
            if targets[target]!.subscribers.removeValue(forKey: session) != nil {
                count(.subscriptions(target: target, delta: -1))
            }
            return .unsubscribed(target: target, reason: nil, id: id)
        case .get(let target, let path):
            let file = try record(target).file
            let runtime = files[file]!
            let resolved = try model { try runtime.resolve(path, inTarget: target) }
            let seq = try model { try runtime.target(target).seq }
            return .value(
                ServerMessage.ValueReply(
                    target: target, seq: seq, path: path.text, valueType: resolved.property.type, value: resolved.value),
                id: id)
        case .set, .fire, .listAppend, .listInsert, .listRemoveAt, .listRemove, .listSwap, .bind, .setInput, .fireInput,
            .setBindTarget:
            try enqueueCommand(body, session: session, requestID: id, grants: grants, author: author)
            return nil
        case .transaction(let transaction):
            try enqueueTransaction(transaction, session: session, requestID: id, grants: grants, author: author)
            return nil
        case .advance(let target, let elapsed):
            guard try record(target).manual else {
                throw WireError(code: .notManual, message: "target '\(target)' advances by itself", details: [("target", .string(target))])
            }
            runAdvance(target, elapsed: elapsed, manual: ManualAdvance(connection: session, id: id))
            return nil
        case .digest(let target):
            let runtime = files[try record(target).file]!
            let seq = try model { try runtime.target(target).seq }
            let bindings = try model { try runtime.target(target).bindings }
            let digest = environment.sha256Hex(StateDigest.canonicalBytes(bindings: bindings, store: runtime.store))
            return .digest(target: target, seq: seq, digest: digest, id: id)
        case .presence(let request):
            try presence(request, id: id, session: session, grants: grants)
            return nil
        case .hello, .listFiles, .listTargets, .ping, .upload, .loadFile:
            throw WireError.internalError("request '\(body.type)' reached a worker")
        }
    }

    func record(_ target: String) throws(WireError) -> TargetRecord {
        guard let record = targets[target] else { throw WireError(StateMachineError.unknownTarget(target)) }
        return record
    }

    /// Proposes publishing an instance as a target (auto mode, default rate), for the
    /// configuration, once its name is claimed (`claimTarget`, never refused for `maxTargets`);
    /// its outcome: `outcome(of:)` after the shell performed the actions (see `proposeOwn`).
    public func publish(_ instance: InstanceID, as name: String, file: String) -> LogTicket {
        claimOwn(name, file: file, thenPropose: .publish(instance: instance, name: name))
    }

    /// Proposes a state machine target for the configuration (`grants`: `.everything`) once its
    /// name is claimed (as `publish(_:as:file:)`); returns its name and the ticket of its
    /// outcome (see `proposeOwn`).
    public func createStateMachine(
        _ request: StateMachineRequest, grants: any RequestGrants
    ) throws(WireError) -> (name: String, ticket: LogTicket) {
        let (record, name) = try stateMachineRecord(request, grants: grants)
        return (name, claimOwn(name, file: request.file, thenPropose: record))
    }

    /// The record of a new state machine, its name, state machine and rate resolved; `grants`
    /// must allow attaching its instances.
    private func stateMachineRecord(_ request: StateMachineRequest, grants: any RequestGrants) throws(WireError) -> (JournalRecord, String)
    {
        let resolved = try resolve(request)
        if let main = request.main { try checkAttach(main, in: request.file, to: resolved.name, at: "", grants: grants) }
        for global in request.globals {
            try checkAttach(global.instance, in: request.file, to: resolved.name, at: ParsedPath("@" + global.name), grants: grants)
        }
        var record = request
        record.name = resolved.name
        record.stateMachine = resolved.machine
        record.rate = request.rate ?? settings.defaultRate
        return (.createStateMachine(record), resolved.name)
    }
}
