import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

extension Connections {
    /// The worker that owns a request's file or target, by the core's copy of the placement,
    /// or the error for one that does not exist.
    func owner(of request: ClientRequest) -> Result<Int, WireError> {
        func file(_ name: String) -> Result<Int, WireError> {
            guard let location = placement.file(name) else {
                if let elsewhere = environment.placedElsewhere(file: name) { return .failure(elsewhere) }
                return .failure(WireError(code: .unknownFile, message: "no file '\(name)'", details: [("file", .string(name))]))
            }
            return .success(location.worker)
        }
        func target(_ name: String) -> Result<Int, WireError> {
            guard let location = placement.target(name) else {
                return .failure(environment.placedElsewhere(target: name) ?? WireError(StateMachineError.unknownTarget(name)))
            }
            return .success(location.worker)
        }
        switch request {
        case .describe(let name), .viewModelNames(let name), .globalViewModelNames(let name), .instanceNames(let name, _),
            .properties(let name, _), .enums(let name), .artboardNames(let name), .stateMachineNames(let name, _),
            .defaultViewModelInfo(let name, _), .createInstance(let name, _, _):
            return file(name)
        case .createStateMachine(let stateMachine):
            return file(stateMachine.file)
        case .publish(let instance, _):
            guard let owner = placement.file(of: instance) else { return .failure(WireError(StateMachineError.unknownInstance(instance))) }
            return .success(owner.location.worker)
        case .subscribe(let name, _, _), .unsubscribe(let name), .deleteTarget(let name), .bind(let name, _, _), .get(let name, _),
            .set(let name, _, _), .fire(let name, _), .listAppend(let name, _, _), .listInsert(let name, _, _, _),
            .listRemoveAt(let name, _, _), .listRemove(let name, _, _), .listSwap(let name, _, _, _), .advance(let name, _),
            .digest(let name), .setInput(let name, _, _), .fireInput(let name, _), .setBindTarget(let name, _, _):
            return target(name)
        case .transaction(let transaction):
            return target(transaction.target)
        case .presence(let request):
            return target(request.target)
        case .hello, .ping, .listFiles, .listTargets, .upload, .loadFile:
            return .failure(.internalError("request '\(request.type)' has no worker"))
        }
    }

    /// The worker a client's next file goes to: each in turn.
    mutating func nextFileWorker() -> Int {
        defer { lastFileWorker = (lastFileWorker + 1) % workers }
        return lastFileWorker
    }

    /// The `files` reply: the files in load order, with their workers and where they came from.
    func files(id: JSONValue?) -> ServerMessage {
        let configured = environment.configuredFiles
        let files = placement.fileList().map { file in
            ServerMessage.FileInfo(name: file.name, worker: file.worker, source: configured.contains(file.name) ? .config : .upload)
        }
        return .files(files, id: id)
    }
}
