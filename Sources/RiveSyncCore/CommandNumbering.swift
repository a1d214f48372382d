/// How one worker numbers the commands it queues (acks and batches carry the numbers): a
/// counter of its own, part of the worker core's state, so workers share nothing to number a
/// command and the core asks nobody for a number.
///
/// Numbers are unique across the daemon (and across a cluster's nodes) because each worker
/// draws from its own part of the number space:
/// - on one daemon, worker `w`'s numbers are `w × 2^44 + counter`: a transaction's numbers are
///   consecutive (PROTOCOL.md §16), and each worker has 2^44 of them;
/// - on a cluster node (`slot` of `slots`, protocol/CLUSTER.md §2.5) they are
///   `(counter × workers + w) × slots + slot`: the slot keeps the nodes apart, the residue
///   modulo `workers` the node's workers.
///
/// Every number stays below 2^53 (JSON's exact integers) for the 64 workers a daemon may have.
public struct CommandNumbering: Sendable {
    /// Worker `w`'s numbers on one daemon start at `w << workerShift`.
    public static let workerShift: UInt64 = 44

    /// Where the numbers of the daemon's workers come from.
    public enum Space: Sendable, Equatable {
        /// One daemon.
        case daemon
        /// A cluster node of `slot` among `slots` (protocol/CLUSTER.md §2.5).
        case cluster(slot: UInt64, slots: UInt64)
    }

    let worker: UInt64
    let workers: UInt64
    let space: Space
    /// The counter of the last number handed out, or the highest seen.
    private(set) var counter: UInt64 = 0

    /// Worker `worker` of the daemon's `workers`, in `space`.
    public init(worker: Int, of workers: Int, in space: Space = .daemon) {
        self.worker = UInt64(worker)
        self.workers = UInt64(workers)
        self.space = space
    }

    /// A fresh number.
    public mutating func next() -> UInt64 {
        counter += 1
        return number(counter)
    }

    /// `count` fresh numbers, increasing, with no other number of this worker between them.
    public mutating func next(count: Int) -> [UInt64] {
        let first = counter + 1
        counter += UInt64(count)
        return (first...counter).map(number)
    }

    /// The counter a number was made from, whichever worker of the same space made it.
    public func counter(of number: UInt64) -> UInt64 {
        switch space {
        case .daemon: return number & (1 << Self.workerShift - 1)
        case .cluster(_, let slots): return number / slots / workers
        }
    }

    /// After a restore, or a record naming commands: later numbers have a counter above
    /// `highest` (the highest `counter(of:)` seen), so they are none of the numbers seen.
    public mutating func ensure(counterAbove highest: UInt64) { counter = max(counter, highest) }

    private func number(_ counter: UInt64) -> UInt64 {
        switch space {
        case .daemon: return worker << Self.workerShift | counter
        case .cluster(let slot, let slots): return (counter * workers + worker) * slots + slot
        }
    }
}
