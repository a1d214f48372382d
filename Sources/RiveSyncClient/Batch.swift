internal import RiveSyncModel
internal import RiveSyncProtocol

/// One advance of a target as this client saw it (`RemoteTarget.batches()`).
public struct Batch: Sendable, Hashable {
    /// One change, at the first path (relative to the target) where it is visible.
    public enum Change: Sendable, Hashable {
        case set(path: String, value: DynamicValue)
        case fire(path: String)
        case listInsert(path: String, index: Int, item: UInt64)
        case listRemove(path: String, index: Int)
        case listSwap(path: String, index: Int, with: Int)
        case bind(slot: String, instance: UInt64)
    }

    /// Who sent a command (PROTOCOL.md §17): its connection's `client` name and token name,
    /// each nil when there was none.
    public struct Author: Sendable, Hashable {
        public let client: String?
        public let token: String?
    }

    public let target: String
    /// The target's batch number (1, 2, 3, … with no gaps for one client).
    public let seq: UInt64
    public let changes: [Change]
    /// The daemon's numbers of the commands this advance applied, in order (their acks carry
    /// the same numbers).
    public let commands: [UInt64]
    /// Who sent each of `commands`, in the same order (nil for a command without a recorded
    /// author); nil when the daemon records no authors (`"authors": false`).
    public let authors: [Author?]?
    /// True for a starting point rather than a batch: the state as of `seq`, either the
    /// first element of `batches(includingCurrent: true)`, or a restart from a snapshot when
    /// the client could not get the batches it missed (the daemon restarted, kept too few, or
    /// this client lagged; value streams then yield the differences). `changes` is empty.
    public let isResync: Bool

    init(_ batch: ServerMessage.Batch) {
        target = batch.target
        seq = batch.seq
        commands = batch.commands
        authors = batch.authors?.map { $0.map { Author(client: $0.client, token: $0.token) } }
        isResync = false
        let effects = batch.effects
        changes = effects.map { effect in
            let path = effect.paths.first ?? ""
            switch effect.change {
            case .set(_, _, let value, _): return .set(path: path, value: DynamicValue(value))
            case .fire: return .fire(path: path)
            case .listInsert(_, _, let index, let item, _): return .listInsert(path: path, index: index, item: item.rawValue)
            case .listRemove(_, _, let index): return .listRemove(path: path, index: index)
            case .listSwap(_, _, let index, let with): return .listSwap(path: path, index: index, with: with)
            case .bind(let slot, let instance, _): return .bind(slot: slot.description, instance: instance.rawValue)
            }
        }
    }

    init(resyncOf target: String, seq: UInt64) {
        self.target = target
        self.seq = seq
        changes = []
        commands = []
        authors = nil
        isResync = true
    }
}
