import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

extension Worker {
    /// Handles a request routed to this worker (on the queue). Every request gets exactly one
    /// reply; commands get theirs after the advance that applies them.
    func handle(_ request: Request, from session: SessionID, grants: Grants) {
        do {
            if let reply = try reply(to: request.body, id: request.id, session: session, grants: grants) {
                context.send(reply, to: session)
            }
        } catch {
            context.sendError(grants.visible(error, for: request.body), id: request.id, to: session)
        }
    }

    /// The reply to send now, or nil when the reply comes later (commands) or was sent already.
    private func reply(to body: ClientRequest, id: JSONValue?, session: SessionID, grants: Grants) throws(WireError) -> ServerMessage? {
        func names(_ list: [String]) -> ServerMessage { .names(list, id: id) }
        func schema(_ file: String) throws(WireError) -> FileSchema { try runtime(file).schema }
        func model<T>(_ body: () throws -> T) throws(WireError) -> T {
            do { return try body() } catch { throw WireError(error) }
        }
        switch body {
        case .describe(let file):
            // Authored values only for connections that could create instances from them anyway.
            let described = try schema(file).jsonValue(authoredValues: grants.allows(.create))
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
            if let publish, context.directory.target(publish) != nil { throw WireError(StateMachineError.targetExists(publish)) }
            let maxTargets = context.limits.withLock { $0.maxTargets }
            if publish != nil, context.directory.targetCount >= maxTargets { throw WireError.limit("maxTargets", maxTargets) }
            let instance = try durably(file, .createInstance(source)) {
                try $0.createInstance(source)
            }
            let state = files[file]!.store[instance]!
            if let publish { try self.publish(instance, as: publish, file: file, maxTargets: maxTargets) }
            return .instance(ServerMessage.CreatedInstance(instance: instance, viewModel: state.viewModel, name: state.name), id: id)
        case .createStateMachine(let request):
            let name = try createStateMachine(request, grants: grants, maxTargets: context.limits.withLock { $0.maxTargets })
            return .target(try createdTargetInfo(name), id: id)
        case .publish(let instance, let name):
            guard let owner = context.directory.file(of: instance) else { throw WireError(StateMachineError.unknownInstance(instance)) }
            try checkAttach(instance, in: owner.name, to: name, at: "", grants: grants)
            try publish(instance, as: name, file: owner.name, maxTargets: context.limits.withLock { $0.maxTargets })
            return .target(try createdTargetInfo(name), id: id)
        case .bind(let target, let main, let globals):
            let file = try record(target).file
            if let main { try checkAttach(main, in: file, to: target, at: "", grants: grants) }
            for global in globals { try checkAttach(global.instance, in: file, to: target, at: "@" + global.name, grants: grants) }
            let number = context.nextCommandNumber()
            try model {
                try files[file]!.bind(target, main: main, globals: globals.map { ($0.name, $0.instance) }, commandID: number)
            }
            try queued(number, on: target, session: session, requestID: id, hiddenPath: nil)
            return nil
        case .deleteTarget(let target):
            return .targetDeleted(target: target, freed: try deleteTarget(target), id: id)
        case .subscribe(let target, let paths, let cursor):
            try subscribe(session, to: target, paths: paths, cursor: cursor, id: id)
            return nil
        case .unsubscribe(let target):
            _ = try record(target)
            if targets[target]!.subscribers.removeValue(forKey: session) != nil {
                context.metrics.add(-1, to: .subscriptions, of: target)
            }
            return .unsubscribed(target: target, reason: nil, id: id)
        case .get(let target, let path):
            let file = try record(target).file
            let runtime = files[file]!
            let property = try model { try runtime.property(at: path, in: target) }
            let value = try model { try runtime.value(at: path, in: target) }
            let seq = try model { try runtime.target(target).seq }
            return .value(ServerMessage.ValueReply(target: target, seq: seq, path: path, valueType: property.type, value: value), id: id)
        case .set, .fire, .listAppend, .listInsert, .listRemoveAt, .listRemove, .listSwap:
            try enqueueCommand(body, session: session, requestID: id, grants: grants)
            return nil
        case .advance(let target):
            guard try record(target).manual else {
                throw WireError(code: .notManual, message: "target '\(target)' advances by itself", details: [("target", .string(target))])
            }
            runAdvance(target)
            let seq = (try? files[targets[target]!.file]!.target(target).seq) ?? 0
            return .advanced(target: target, seq: seq, id: id)
        case .digest(let target):
            let runtime = files[try record(target).file]!
            let seq = try model { try runtime.target(target).seq }
            let bindings = try model { try runtime.target(target).bindings }
            let digest = SHA256Digest.hex(StateDigest.canonicalBytes(bindings: bindings, store: runtime.store))
            return .digest(target: target, seq: seq, digest: digest, id: id)
        case .hello, .listFiles, .listTargets, .ping, .upload, .loadFile:
            throw WireError.internalError("request '\(body.type)' reached a worker")
        }
    }

    /// The listing entry of a target this request has just created or published.
    private func createdTargetInfo(_ name: String) throws(WireError) -> ServerMessage.TargetInfo {
        guard let info = targetInfo(name) else { throw WireError.internalError("target '\(name)' vanished after its creation") }
        return info
    }

    func record(_ target: String) throws(WireError) -> TargetRecord {
        guard let record = targets[target] else { throw WireError(StateMachineError.unknownTarget(target)) }
        return record
    }

    /// Publishes an instance as a target (auto mode, default rate); a client's request passes
    /// `maxTargets`.
    func publish(_ instance: InstanceID, as name: String, file: String, maxTargets: Int? = nil) throws(WireError) {
        try claimTarget(name, file: file, maxTargets: maxTargets)
        do {
            try durably(file, .publish(instance: instance, name: name), snapshot: false) { try $0.publish(instance, as: name) }
        } catch {
            context.directory.releaseTarget(name)
            throw error
        }
        targets[name] = TargetRecord(file: file, manual: false, rate: context.configuration.defaultRate)
        snapshotIfDue(file)
    }

    /// Claims a target name: `target_exists` when taken, `limit_exceeded` when a client's
    /// request (`maxTargets` given) would pass the limit.
    private func claimTarget(_ name: String, file: String, maxTargets: Int?) throws(WireError) {
        guard let maxTargets else {
            guard context.directory.claimTarget(name, file: file) else { throw WireError(StateMachineError.targetExists(name)) }
            return
        }
        switch context.directory.claimTarget(name, file: file, limit: maxTargets) {
        case .claimed: return
        case .taken: throw WireError(StateMachineError.targetExists(name))
        case .full: throw WireError.limit("maxTargets", maxTargets)
        }
    }

    /// Creates a state machine target; returns its name. `grants` must allow attaching its
    /// instances (the configuration and replay pass `.everything`); a client's request passes
    /// `maxTargets`.
    func createStateMachine(_ request: StateMachineRequest, grants: Grants, maxTargets: Int? = nil) throws(WireError) -> String {
        let schema = try runtime(request.file).schema
        let artboard: ArtboardSchema
        do {
            artboard = try schema.artboard(named: request.artboard)
        } catch {
            throw WireError(error)
        }
        let machine = request.stateMachine ?? artboard.defaultStateMachine ?? artboard.stateMachines.first
        guard let machine, artboard.stateMachines.contains(machine) else {
            throw WireError(ArtboardError.invalidStateMachine(request.stateMachine ?? "artboard '\(artboard.name)' has no state machine"))
        }
        let name = request.name ?? machine
        if let main = request.main { try checkAttach(main, in: request.file, to: name, at: "", grants: grants) }
        for global in request.globals {
            try checkAttach(global.instance, in: request.file, to: name, at: "@" + global.name, grants: grants)
        }
        try claimTarget(name, file: request.file, maxTargets: maxTargets)
        var resolved = request
        resolved.name = name
        resolved.stateMachine = machine
        resolved.rate = request.rate ?? context.configuration.defaultRate
        do {
            try durably(request.file, .createStateMachine(resolved), snapshot: false) {
                try $0.createStateMachine(
                    named: name, artboard: artboard.name, stateMachine: machine, main: request.main,
                    globals: request.globals.map { ($0.name, $0.instance) })
            }
        } catch {
            context.directory.releaseTarget(name)
            throw error
        }
        targets[name] = TargetRecord(file: request.file, manual: request.manual, rate: resolved.rate!)
        snapshotIfDue(request.file)
        return name
    }
}
