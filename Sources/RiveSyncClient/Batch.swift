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

    /// Who made a change: a client's command, or the target's state machine (a listener, a
    /// data bind, a converter, a transition; Rive's "updated as a result of a binding").
    public enum Origin: Sendable, Hashable {
        case command
        case stateMachine
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
    /// Who made each of `changes`, in the same order.
    public let origins: [Origin]
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
    /// Seconds the target's state machine ran in this advance (0: none; PROTOCOL.md §19).
    public let elapsed: Double
    /// The Rive events the state machine reported during the advance, in order.
    public let events: [StateMachineEvent]
    /// The layers whose state changed in this advance, with their new state.
    public let layers: [StateMachineLayer]
    /// False while the state machine needs further advances. A batch of a target that only
    /// sees another target's shared change says true: its own state machine did not run.
    public let settled: Bool

    /// One trigger fire of the batch, by the instance that holds the trigger (for the bridge,
    /// which follows instances, not paths).
    struct Fire: Sendable, Hashable {
        let instance: UInt64
        let property: String
        let origin: Origin
    }

    /// Every fire of the batch, in order.
    let fires: [Fire]

    /// The changes the state machine made, with their paths.
    public var stateMachineChanges: [Change] {
        zip(changes, origins).filter { $0.1 == .stateMachine }.map(\.0)
    }

    init(_ batch: ServerMessage.Batch) {
        target = batch.target
        seq = batch.seq
        commands = batch.commands
        authors = batch.authors?.map { $0.map { Author(client: $0.client, token: $0.token) } }
        isResync = false
        elapsed = batch.elapsed
        events = batch.events.map(StateMachineEvent.init)
        layers = batch.layers.map(StateMachineLayer.init)
        settled = batch.settled
        let effects = batch.effects
        origins = effects.map { $0.origin == .stateMachine ? .stateMachine : .command }
        fires = effects.compactMap { effect in
            guard case .fire(let instance, let property) = effect.change else { return nil }
            return Fire(instance: instance.rawValue, property: property, origin: effect.origin == .stateMachine ? .stateMachine : .command)
        }
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
        origins = []
        fires = []
        commands = []
        authors = nil
        isResync = true
        elapsed = 0
        events = []
        layers = []
        settled = true
    }
}
