import RiveSyncModel
import RiveSyncProtocol

/// Who gets a batch and in which bytes: a pure decision. Whole-target subscribers share one
/// frame (the whole batch, encoded once by the caller, who keeps it in the history); each
/// distinct set of paths is filtered and encoded once, shared by its subscribers; a set of paths that sees
/// nothing of the batch gets nothing. Subscribers over half their send queue lag: they get no
/// batch and, once drained, a catch-up snapshot instead.
public enum Fanout {
    /// A subscriber of the batch's target.
    public struct Subscriber: Sendable {
        public var connection: ConnectionID
        /// nil: the whole target.
        public var paths: [String]?

        public init(connection: ConnectionID, paths: [String]?) {
            self.connection = connection
            self.paths = paths
        }
    }

    /// The sends of one batch, and the subscribers that start lagging with it.
    public struct Plan: Sendable {
        /// Who gets the whole batch (one frame for all).
        public var wholeTarget = Recipients()
        /// Filtered batches, one frame per distinct set of paths.
        public var filtered: [(Frame, Recipients)] = []
        public var lagging: [ConnectionID] = []
    }

    /// Plans a batch's delivery. `anyBacklog`: whether any connection's queue may be over the
    /// soft limit (when not, `queuedBytes` is not asked); subscribers are taken in the order
    /// given. `withAuthors`: the batches carry their commands' authors. `headroom`: free bytes in
    /// front of each filtered frame (`WorkerSettings.frameHeadroom`).
    public static func plan(
        _ batch: ChangeBatch, epoch: String, withAuthors: Bool = false, to subscribers: [Subscriber], anyBacklog: Bool,
        maxSendQueueBytes: Int, headroom: Int = 0, queuedBytes: (ConnectionID) -> Int
    ) -> Plan {
        var plan = Plan()
        // Room for every subscriber at once (most subscribe to the whole target).
        plan.wholeTarget.reserveCapacity(subscribers.count)
        var byPaths: [[String]: Recipients] = [:]
        var pathOrder: [[String]] = []
        for subscriber in subscribers {
            if anyBacklog, Backlog.lags(queuedBytes: queuedBytes(subscriber.connection), maxSendQueueBytes: maxSendQueueBytes) {
                plan.lagging.append(subscriber.connection)
            } else if let paths = subscriber.paths {
                if byPaths[paths] == nil { pathOrder.append(paths) }
                byPaths[paths, default: []].append(subscriber.connection)
            } else {
                plan.wholeTarget.append(subscriber.connection)
            }
        }
        for paths in pathOrder {
            let effects = PathFilter.effects(batch.effects, visibleTo: paths)
            guard !effects.isEmpty else { continue }
            let bytes = ServerMessage.batchBytes(batch, epoch: epoch, effects: effects, withAuthors: withAuthors, headroom: headroom)
            plan.filtered.append((Frame(written: bytes), byPaths[paths]!))
        }
        return plan
    }
}
