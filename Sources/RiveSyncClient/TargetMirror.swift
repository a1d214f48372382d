internal import RiveSyncJSON
internal import RiveSyncModel
internal import RiveSyncProtocol

/// A whole-target subscription: the replica (the state as of the last batch), who waits for
/// it, and the streams that watch it.
struct TargetMirror: Sendable {
    let target: String
    let file: String
    let schema: FileSchema
    /// The epoch the replica's seq belongs to.
    var epoch = ""
    var replica: Replica?
    var waiters: [CheckedContinuation<Void, any Error>] = []
    private(set) var listeners: [Int: Listener] = [:]
    /// The listeners by the property their path leads to, so a value-only batch looks only at
    /// the listeners its effects touch.
    private(set) var listenersByProperty: [WatchedProperty: Set<Int>] = [:]
    /// How many times a listener compared its path with the replica (for tests).
    private(set) var listenerUpdates = 0
    var batchListeners: [Int: AsyncThrowingStream<Batch, any Error>.Continuation] = [:]
    /// Batch listeners that start with the snapshot's seq once it arrives.
    var startMarkers: Set<Int> = []
    /// Callers of `RemoteTarget.waitForSeq` and the seq each waits for.
    var seqWaiters: [(seq: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []

    /// Starts again from a snapshot (first subscribe, failed resume, catch-up), then tells
    /// every stream what changed since it last looked.
    mutating func install(snapshot: TargetSnapshot, epoch: String) {
        let seq = snapshot.seq
        let hadReplica = replica != nil
        replica = Replica(snapshot: snapshot)
        self.epoch = epoch
        let batch = Batch(resyncOf: target, seq: seq)
        for (id, continuation) in batchListeners where hadReplica || startMarkers.contains(id) { continuation.yield(batch) }
        startMarkers = []
        notify(changes: nil)
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// Applies the next batch to the replica and tells the streams. Throws when the batch does
    /// not follow (the caller then subscribes afresh); an older batch is skipped.
    mutating func apply(_ batch: ServerMessage.Batch) throws {
        guard var replica, batch.seq > replica.seq else { return }
        try replica.apply(batch.changeBatch)
        self.replica = replica
        let delivered = Batch(batch)
        for continuation in batchListeners.values { continuation.yield(delivered) }
        notify(changes: batch.effects)
    }

    mutating func add(_ listener: Listener, id: Int) {
        listeners[id] = listener
        if let watched = listener.watched { listenersByProperty[watched, default: []].insert(id) }
    }

    mutating func removeListener(_ id: Int) {
        guard let listener = listeners.removeValue(forKey: id), let watched = listener.watched else { return }
        listenersByProperty[watched]?.remove(id)
        if listenersByProperty[watched]?.isEmpty == true { listenersByProperty[watched] = nil }
    }

    /// Lets the streams the batch's effects touch compare their paths with the replica (every
    /// stream after a snapshot, `changes` nil, or an effect that can move paths), and wakes
    /// the seq waiters whose batch has arrived.
    mutating func notify(changes effects: [Effect]?) {
        guard let replica else { return }
        var touched: Set<Int>?
        if let effects {
            var ids: Set<Int> = []
            for effect in effects {
                guard let changed = effect.valueOnlyChange else {
                    ids = Set(listeners.keys)
                    break
                }
                ids.formUnion(listenersByProperty[changed] ?? [])
            }
            touched = ids
        }
        for id in (touched.map(Array.init) ?? Array(listeners.keys)).sorted() {
            let before = listeners[id]!.watched
            listeners[id]!.update(in: replica, schema: schema)
            listenerUpdates += 1
            let after = listeners[id]!.watched
            guard before != after else { continue }
            if let before {
                listenersByProperty[before]?.remove(id)
                if listenersByProperty[before]?.isEmpty == true { listenersByProperty[before] = nil }
            }
            if let after { listenersByProperty[after, default: []].insert(id) }
        }
        let (ready, waiting) = (seqWaiters.filter { $0.seq <= replica.seq }, seqWaiters.filter { $0.seq > replica.seq })
        seqWaiters = waiting
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Ends every stream and wait with `error`.
    mutating func fail(_ error: any Error) {
        for waiter in waiters { waiter.resume(throwing: error) }
        waiters = []
        for listener in listeners.values { listener.sink(.finished(error)) }
        listeners = [:]
        listenersByProperty = [:]
        for continuation in batchListeners.values { continuation.finish(throwing: error) }
        batchListeners = [:]
        for waiter in seqWaiters { waiter.continuation.resume(throwing: error) }
        seqWaiters = []
    }
}
