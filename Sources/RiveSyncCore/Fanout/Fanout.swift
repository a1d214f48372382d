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

    /// A target's subscribers as its batches reach them: the whole-target ones in one list, the
    /// others grouped by their set of paths. It depends on the subscribers alone (unless some
    /// lag), so a worker keeps it per target until they change: a batch then makes no list
    /// of its subscribers.
    public struct Audience: Sendable {
        /// Who gets the whole batch, in the order given.
        public private(set) var wholeTarget = Recipients()
        /// Each distinct set of paths with its subscribers, in the order first given.
        public private(set) var byPaths: [(paths: [String], connections: Recipients)] = []
        /// The subscribers `lags` set apart, in the order given.
        public private(set) var lagging: [ConnectionID] = []

        /// `subscribers` grouped in the order given, those `lags` says lag set apart (`lags`
        /// is asked of every subscriber, in order).
        public init(_ subscribers: some Sequence<Subscriber>, lags: (ConnectionID) -> Bool = { _ in false }) {
            var group: [[String]: Int] = [:]
            for subscriber in subscribers {
                if lags(subscriber.connection) {
                    lagging.append(subscriber.connection)
                } else if let paths = subscriber.paths {
                    if let index = group[paths] {
                        byPaths[index].connections.append(subscriber.connection)
                    } else {
                        group[paths] = byPaths.count
                        byPaths.append((paths, Recipients(subscriber.connection)))
                    }
                } else {
                    wholeTarget.append(subscriber.connection)
                }
            }
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

    /// Plans a batch's delivery to `audience`. `openings`: the bytes the target's batches start
    /// with (its name and epoch). `withAuthors`: the batches carry their commands' authors.
    /// `headroom`: free bytes in front of each filtered frame (`WorkerSettings.frameHeadroom`).
    public static func plan(
        _ batch: borrowing ChangeBatch, openings: ServerMessage.TargetOpenings, withAuthors: Bool = false, to audience: Audience,
        headroom: Int = 0
    ) -> Plan {
        var plan = Plan(wholeTarget: audience.wholeTarget, lagging: audience.lagging)
        for (paths, connections) in audience.byPaths {
            let effects = PathFilter.effects(batch.effects, visibleTo: paths)
            guard !effects.isEmpty else { continue }
            let bytes = ServerMessage.batchBytes(batch, openings: openings, effects: effects, withAuthors: withAuthors, headroom: headroom)
            plan.filtered.append((Frame(written: bytes), connections))
        }
        return plan
    }
}
