internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

extension Session {
    /// The schema of a file (one `describe`, then cached).
    func schema(of file: String) async throws -> FileSchema {
        if let schema = schemas[file] { return schema }
        let reply = try await request(.describe(file: file), .file)
        guard case .schema(_, let document, _) = reply else { throw reply.unexpected(.schema) }
        let schema: FileSchema
        do {
            schema = try FileSchema(json: document)
        } catch {
            throw FileError.invalidData("schema of '\(file)': \(error)")
        }
        schemas[file] = schema
        return schema
    }

    /// Every target the daemon has (`listTargets`, page by page until a reply has no
    /// `next`); remembers each one's file.
    func targetList() async throws -> [ServerMessage.TargetInfo] {
        var targets: [ServerMessage.TargetInfo] = []
        var page = TargetPage.first
        while true {
            let reply = try await request(.listTargets(page), .stateMachine)
            guard case .targets(let found, _) = reply else { throw reply.unexpected(.targets) }
            targets += found.targets
            guard let next = found.next, next != page.after else { break }
            page.after = next
        }
        for target in targets {
            targetFiles[target.name] = target.file
            if target.mode == .manual { manualTargets.insert(target.name) } else { manualTargets.remove(target.name) }
        }
        return targets
    }

    /// The file a target belongs to.
    func file(ofTarget target: String) async throws -> String {
        if let file = targetFiles[target] { return file }
        _ = try await targetList()
        guard let file = targetFiles[target] else { throw StateMachineError.unknownTarget(target) }
        return file
    }

    func remember(target: String, file: String, manual: Bool = false) {
        targetFiles[target] = file
        if manual { manualTargets.insert(target) }
    }

    /// Subscribes to the whole target (once) and waits for its replica.
    func ensureSubscribed(_ target: String) async throws -> TargetMirror {
        try await prepareMirror(target)
        return try await awaitReplica(target)
    }

    /// Creates the target's mirror and sends its subscribe, unless that happened already.
    /// Returns without suspending after the subscribe is sent, so a caller can register a
    /// listener before any reply is handled.
    func prepareMirror(_ target: String) async throws {
        guard mirrors[target] == nil else { return }
        let file = try await file(ofTarget: target)
        let schema = try await schema(of: file)
        try await waitUntilReady()
        guard mirrors[target] == nil else { return }
        mirrors[target] = TargetMirror(target: target, file: file, schema: schema)
        sendSubscribe(target, cursor: nil)
    }

    /// Waits until the target's mirror has its replica.
    func awaitReplica(_ target: String) async throws -> TargetMirror {
        if mirrors[target]?.replica == nil {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if mirrors[target] == nil {
                    continuation.resume(throwing: StateMachineError.unknownTarget(target))
                } else if mirrors[target]!.replica != nil {
                    continuation.resume()
                } else {
                    mirrors[target]!.waiters.append(continuation)
                }
            }
        }
        guard let mirror = mirrors[target] else { throw StateMachineError.unknownTarget(target) }
        return mirror
    }

    /// The value at `path` (from `root`, or target-relative) as of the last batch. An
    /// instance the target's replica does not hold is read with a `get` instead.
    func read(_ target: String, root: InstanceID?, path: String) async throws -> ResolvedValue {
        let mirror = try await ensureSubscribed(target)
        let replica = mirror.replica!
        if let root, replica.store[root] == nil {
            let reply = try await request(
                .get(target: target, path: ParsedPath("#\(root.rawValue)/\(path)")), .instance, pathPrefix: "#\(root.rawValue)/")
            guard case .value(let got, _) = reply else { throw reply.unexpected(.value) }
            return ResolvedValue(instance: root, property: PropertySchema(name: path, type: got.valueType), value: got.value)
        }
        do {
            return try ReplicaPath.resolve(path, from: root, in: replica, schema: mirror.schema)
        } catch {
            throw ViewModelInstanceError(error)
        }
    }

    /// Registers a stream's listener after checking that its path resolves to a property of
    /// `type` (any type when nil; throws at once otherwise). With `includingCurrent` the current value is
    /// reported first; otherwise the first report is the first change.
    func addListener(
        _ target: String, root: InstanceID?, path: String, type: DataType?, includingCurrent: Bool,
        sink: @escaping @Sendable (ListenerEvent) -> Void
    ) async throws -> Int {
        let resolved = try await read(target, root: root, path: path)
        if let type, resolved.property.type != type {
            throw ViewModelInstanceError.valueMismatch(type.rawValue, resolved.property.type.rawValue)
        }
        guard mirrors[target]?.replica?.store[resolved.instance] != nil else {
            throw ViewModelInstanceError.unknownInstance(resolved.instance.rawValue)
        }
        let id = nextListenerID
        nextListenerID += 1
        let kind: Listener.Kind = type == .trigger ? .trigger : .value
        let listener = Listener(
            root: root, path: path, kind: kind, lastInstance: resolved.instance, lastProperty: resolved.property.name, last: resolved.value,
            sink: sink)
        mirrors[target]!.add(listener, id: id)
        if includingCurrent, kind == .value { sink(.value(resolved.value)) }
        return id
    }

    /// Registers a stream of every later batch of the target: every batch after the
    /// snapshot when this subscribes the target, else every batch after this call. With
    /// `includingCurrent`, a starting point (`isResync`, the seq it starts after) comes first.
    func addBatchListener(
        _ target: String, includingCurrent: Bool, _ continuation: AsyncThrowingStream<Batch, any Error>.Continuation
    ) async throws -> Int {
        try await prepareMirror(target)
        guard mirrors[target] != nil else { throw StateMachineError.unknownTarget(target) }
        let id = nextListenerID
        nextListenerID += 1
        mirrors[target]!.batchListeners[id] = continuation
        if includingCurrent {
            if let replica = mirrors[target]!.replica {
                continuation.yield(Batch(resyncOf: target, seq: replica.seq))
            } else {
                mirrors[target]!.startMarkers.insert(id)
            }
        }
        _ = try await awaitReplica(target)
        return id
    }

    /// How many value and batch listeners the mirrors hold (for tests: an ended stream leaves none).
    var listenerCount: Int { mirrors.values.reduce(0) { $0 + $1.listeners.count + $1.batchListeners.count } }

    func removeListener(_ target: String, _ id: Int) {
        mirrors[target]?.removeListener(id)
        mirrors[target]?.batchListeners[id] = nil
    }

    /// Returns once the target's replica has applied batch `seq`.
    func waitForSeq(_ target: String, _ seq: UInt64) async throws {
        guard try await ensureSubscribed(target).replica!.seq < seq else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if let replica = mirrors[target]?.replica, replica.seq < seq {
                mirrors[target]!.seqWaiters.append((seq, continuation))
            } else {
                continuation.resume()
            }
        }
    }

    /// The seq of the last batch the target's replica applied.
    func seq(of target: String) async throws -> UInt64 {
        try await ensureSubscribed(target).replica!.seq
    }

    /// The target an instance is addressed through: the one it was anchored to, else a
    /// subscribed target of its file that reaches it, else a target made for it by publishing
    /// it under a name private to this client.
    func anchor(for id: InstanceID, file: String) async throws -> String {
        if let anchor = anchors[id] { return anchor }
        if let mirror = mirrors.values.sorted(by: { $0.target < $1.target })
            .first(where: { $0.file == file && $0.replica?.store[id] != nil })
        {
            anchors[id] = mirror.target
            return mirror.target
        }
        let name = "~\(clientTag).\(id.rawValue)"
        _ = try await request(.publish(instance: id, name: name), .stateMachine)
        targetFiles[name] = file
        if let anchor = anchors[id] { return anchor }
        anchors[id] = name
        return name
    }

    /// Anchors an instance to a target that reaches it, unless it has an anchor already.
    func adopt(_ id: InstanceID, anchor target: String) {
        if anchors[id] == nil { anchors[id] = target }
    }
}
