import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

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
    var listeners: [Int: Listener] = [:]
    var batchListeners: [Int: AsyncThrowingStream<Batch, any Error>.Continuation] = [:]
    /// Batch listeners that start with the snapshot's seq once it arrives.
    var startMarkers: Set<Int> = []
    /// Callers of `RemoteTarget.waitForSeq` and the seq each waits for.
    var seqWaiters: [(seq: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []

    /// Starts again from a snapshot reply (first subscribe, failed resume, catch-up), then
    /// tells every stream what changed since it last looked.
    mutating func install(snapshot json: JSONValue, epoch: String) throws {
        let snapshot = try StateCodec.decodeSnapshot(json, target: target, schema: schema)
        let seq = snapshot.seq
        let hadReplica = replica != nil
        replica = Replica(snapshot: snapshot)
        self.epoch = epoch
        let batch = Batch(resyncOf: target, seq: seq)
        for (id, continuation) in batchListeners where hadReplica || startMarkers.contains(id) { continuation.yield(batch) }
        startMarkers = []
        notify()
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// Applies the next batch to the replica and tells the streams. Throws when the batch does
    /// not follow (the caller then subscribes afresh).
    mutating func apply(batch json: JSONValue) throws {
        guard var replica else { return }
        let seq = UInt64(json["seq"]?.intValue ?? 0)
        guard seq > replica.seq else { return }
        let decoded = try StateCodec.decodeBatch(json, schema: schema, replica: replica)
        try replica.apply(decoded)
        self.replica = replica
        let batch = Batch(target: target, seq: seq, effects: decoded.effects)
        for continuation in batchListeners.values { continuation.yield(batch) }
        notify()
    }

    /// Lets every stream compare its path with the replica, and wakes the seq waiters whose
    /// batch has arrived.
    mutating func notify() {
        guard let replica else { return }
        for id in listeners.keys.sorted() { listeners[id]!.update(in: replica, schema: schema) }
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
        for continuation in batchListeners.values { continuation.finish(throwing: error) }
        batchListeners = [:]
        for waiter in seqWaiters { waiter.continuation.resume(throwing: error) }
        seqWaiters = []
    }
}
