import Dispatch
import RiveFile
import RiveSyncCluster
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTransport

/// The dispatcher's background work: nothing here runs under the core's lock but the start
/// and the answer (`backgroundFinished`, or `fileLoaded` for a file the core then lists).
extension Dispatcher {
    func start(_ work: BackgroundWork, for connection: ConnectionID, id: JSONValue?) {
        let finish: @Sendable (ServerMessage) -> Void = { reply in
            self.post(.backgroundFinished(connection, reply: Frame(reply, headroom: Payload.headroom)))
        }
        switch work {
        case .listTargets(let page, let identity):
            let grants = connections.settings.access.grants(of: identity) ?? Grants(scopes: [])
            gatherTargets(page, grants: grants, id: id, then: finish)
        case .upload(let kind, let data, let mediaType):
            background.async {
                let reply = self.upload(kind: kind, data: data, mediaType: mediaType, id: id)
                guard !self.context.clusterLogs.isEmpty, case .asset(let reference, _) = reply else { return finish(reply) }
                self.share(reference, reply: reply, then: finish)
            }
        case .loadFile(let name, let content, let index):
            let loaded: @Sendable () -> Void = { self.post(.fileLoaded(connection, id: id)) }
            background.async { self.loadFile(name: name, content: content, onto: index, id: id, loaded: loaded, else: finish) }
        }
    }

    /// One page of `listTargets`, gathered from every worker without waiting on any: the
    /// targets the grants show, by name, after `page.after`; at most `page.limit` (capped at
    /// `maxPageSize`); `next` (the last name) when more follow.
    private func gatherTargets(_ page: TargetPage, grants: Grants, id: JSONValue?, then finish: @escaping @Sendable (ServerMessage) -> Void)
    {
        let maxPageSize = context.limits.withLock { $0.maxPageSize }
        let limit = min(page.limit ?? maxPageSize, maxPageSize)
        let gathered = Locked<(found: [(name: String, info: ServerMessage.TargetInfo)], left: Int)>(([], workers.count))
        for worker in workers {
            worker.host.async {
                let infos = worker.targetInfos(after: page.after, limit: limit + 1, shows: grants.shows)
                let all = gathered.withLock { state -> [(name: String, info: ServerMessage.TargetInfo)]? in
                    state.found += infos
                    state.left -= 1
                    return state.left == 0 ? state.found : nil
                }
                guard let all else { return }
                let found = all.sorted { $0.name < $1.name }
                let next = found.count > limit ? found[limit - 1].name : nil
                finish(.targets(ServerMessage.TargetPage(targets: found.prefix(limit).map(\.info), next: next), id: id))
            }
        }
    }

    /// An error reply, counted.
    private func failure(_ error: WireError, id: JSONValue?) -> ServerMessage {
        context.metrics.recordError(code: error.code.rawValue)
        return .error(error, id: id)
    }

    private func upload(kind: String, data: [UInt8], mediaType: String?, id: JSONValue?) -> ServerMessage {
        do {
            let reference = try context.assets.add(kind: kind, data: data, mediaType: mediaType)
            if let state = context.stateDirectory {
                do {
                    try state.storeAsset(id: reference.id, mediaType: reference.mediaType, bytes: data)
                } catch {
                    context.log(.error, "storing an asset failed; the upload is refused", [("error", "\(error)")])
                    return failure(WorkerCore.storageFailed(LogFailure(PersistenceError.clientDescription(of: error))), id: id)
                }
            }
            return .asset(reference, id: id)
        } catch {
            return failure(WireError(code: .invalidAssetData, message: error.reason), id: id)
        }
    }

    /// Parses a file sent by a client (here, in the background) and loads it onto worker
    /// `index` (on its queue): `loaded` once placed and loaded, else `finish` with the error.
    private func loadFile(
        name: String, content: FileContent, onto index: Int, id: JSONValue?, loaded: @escaping @Sendable () -> Void,
        else finish: @escaping @Sendable (ServerMessage) -> Void
    ) {
        let schema: FileSchema
        do {
            switch content {
            case .riv(let bytes): schema = try RiveFileReader.read(bytes)
            case .schema(let json): schema = try FileSchema(json: json)
            }
        } catch let error as RiveFileError {
            return finish(failure(WireError(error.fileError), id: id))
        } catch {
            return finish(failure(WireError(error), id: id))
        }
        let exists = WireError(code: .fileExists, message: "file '\(name)' already exists", details: [("file", .string(name))])
        if !context.clusterLogs.isEmpty {
            guard context.directory.file(name) == nil else { return finish(failure(exists, id: id)) }
            switch context.clusterWorker(ofFile: name) {
            case .failure(let elsewhere): return finish(failure(elsewhere, id: id))
            case .success(let shard):
                return loadFile(
                    schema, as: name, through: context.clusterLogs[shard], on: workers[shard], id: id, loaded: loaded, else: finish)
            }
        }
        guard let location = context.directory.reserveFile(name, worker: index) else { return finish(failure(exists, id: id)) }
        let worker = workers[index]
        worker.host.async {
            do {
                try worker.loadDurably(schema, as: name, number: location.number)
            } catch {
                self.context.directory.releaseFile(name)
                self.context.log(.error, "a client's file could not be made durable; refused", [("file", name), ("error", "\(error)")])
                let text = PersistenceError.clientDescription(of: error)
                return finish(self.failure(WorkerCore.storageFailed(LogFailure(text)), id: id))
            }
            self.context.log(.info, "file loaded by a client", [("file", name), ("worker", "\(index)")])
            loaded()
        }
    }

    /// A cluster node's `loadFile`: a `file` entry every node applies (protocol/CLUSTER.md §2.3);
    /// `loaded` once it applied here, else `finish` with the error.
    private func loadFile(
        _ schema: FileSchema, as name: String, through clusterLog: RedisChangeLog, on worker: WorkerShell, id: JSONValue?,
        loaded: @escaping @Sendable () -> Void, else finish: @escaping @Sendable (ServerMessage) -> Void
    ) {
        let header = JournalHeader(name: name, worker: worker.index, schema: schema.jsonValue)
        worker.host.async {
            clusterLog.proposeFile(name: name, header: header) { outcome in
                switch outcome {
                case .committed(applied: true):
                    self.context.log(.info, "file loaded by a client into the cluster", [("file", name)])
                    loaded()
                case .committed(applied: false):
                    let error = WireError(code: .fileExists, message: "file '\(name)' already exists", details: [("file", .string(name))])
                    finish(self.failure(error, id: id))
                case .failed(let failure):
                    finish(self.failure(WorkerCore.storageFailed(failure), id: id))
                }
            }
        }
    }

    /// A cluster node's upload: an `asset` entry every node applies (protocol/CLUSTER.md §1.5),
    /// in the log of each shard this node serves (§6.5), so a `set` naming it is accepted on any
    /// node of them; the reply once it applied here on every one, or the first failure.
    private func share(
        _ reference: AssetReference, reply: ServerMessage, then finish: @escaping @Sendable (ServerMessage) -> Void
    ) {
        let outstanding = Locked((count: context.clusterLogs.count, answered: false))
        for (clusterLog, worker) in zip(context.clusterLogs, workers) {
            worker.host.async {
                clusterLog.proposeAsset(reference) { outcome in
                    let answer: ServerMessage? = outstanding.withLock { state in
                        guard !state.answered else { return nil }
                        switch outcome {
                        case .committed:
                            state.count -= 1
                            guard state.count == 0 else { return nil }
                        case .failed(let failure):
                            state.answered = true
                            return self.failure(WorkerCore.storageFailed(failure), id: reply.id)
                        }
                        state.answered = true
                        return reply
                    }
                    if let answer { finish(answer) }
                }
            }
        }
    }
}
