import RiveSyncJSON
import RiveSyncModel

extension ServerMessage {
    /// `welcome`: the protocol spoken, the daemon's name and version, its epoch, its limits.
    public struct Welcome: Sendable, Hashable {
        public var protocolVersion: Int
        public var server: String
        public var epoch: String
        /// Every limit of §12 by name, in the daemon's order.
        public var limits: [Limit]

        public init(protocolVersion: Int, server: String, epoch: String, limits: [Limit]) {
            self.protocolVersion = protocolVersion
            self.server = server
            self.epoch = epoch
            self.limits = limits
        }
    }

    /// One limit of `welcome`.
    public struct Limit: Sendable, Hashable {
        public var name: String
        public var value: Int

        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    /// One entry of `files`.
    public struct FileInfo: Sendable, Hashable {
        public var name: String
        public var worker: Int
        public var source: FileSource

        public init(name: String, worker: Int, source: FileSource) {
            self.name = name
            self.worker = worker
            self.source = source
        }
    }

    /// Where a file came from.
    public enum FileSource: String, Sendable, Hashable, CaseIterable {
        /// The daemon's configuration.
        case config
        /// A client's `loadFile`.
        case upload
    }

    /// A page of `targets`: `next` (the last name) when more follow.
    public struct TargetPage: Sendable, Hashable {
        public var targets: [TargetInfo]
        public var next: String?

        public init(targets: [TargetInfo], next: String?) {
            self.targets = targets
            self.next = next
        }
    }

    /// A target as listed, and as `target` replies describe it.
    public struct TargetInfo: Sendable, Hashable {
        public var name: String
        public var file: String
        public var kind: TargetKind
        public var mode: AdvanceMode
        /// Advances per second (auto mode).
        public var rate: Double
        public var seq: UInt64
        public var bindings: [Binding]
        /// A state machine's layers, each with its current state, in layer order (nil for a
        /// published instance).
        public var layers: [LayerState]?
        /// Whether a state machine needs no further advance (nil for a published instance).
        public var settled: Bool?
        /// A state machine's legacy inputs with their values, in file order (nil for a
        /// published instance).
        public var inputs: [StateMachineInputState]?

        public init(
            name: String, file: String, kind: TargetKind, mode: AdvanceMode, rate: Double, seq: UInt64, bindings: [Binding],
            layers: [LayerState]? = nil, settled: Bool? = nil, inputs: [StateMachineInputState]? = nil
        ) {
            self.layers = layers
            self.settled = settled
            self.inputs = inputs
            self.name = name
            self.file = file
            self.kind = kind
            self.mode = mode
            self.rate = rate
            self.seq = seq
            self.bindings = bindings
        }
    }

    /// What a target is.
    public enum TargetKind: Sendable, Hashable {
        /// A state machine of an artboard.
        case stateMachine(artboard: String, stateMachine: String)
        /// A published view model instance.
        case instance
    }

    /// How a target advances.
    public enum AdvanceMode: String, Sendable, Hashable, CaseIterable {
        /// By itself, at its rate.
        case auto
        /// Only on `advance`.
        case manual
    }

    /// One entry of `properties`.
    public struct PropertyInfo: Sendable, Hashable {
        public var name: String
        public var type: DataType
        public var metaData: String

        public init(name: String, type: DataType, metaData: String) {
            self.name = name
            self.type = type
            self.metaData = metaData
        }
    }

    /// One entry of `enums`.
    public struct EnumInfo: Sendable, Hashable {
        public var name: String
        public var values: [String]

        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    /// `instance`: the created instance.
    public struct CreatedInstance: Sendable, Hashable {
        public var instance: InstanceID
        public var viewModel: String
        public var name: String

        public init(instance: InstanceID, viewModel: String, name: String) {
            self.instance = instance
            self.viewModel = viewModel
            self.name = name
        }
    }

    /// `subscribed`: a subscription resumed from `seq`.
    public struct Subscribed: Sendable, Hashable {
        public var target: String
        public var epoch: String
        public var seq: UInt64
        public var resumed: Bool
        /// The target's presence members (§15), for a connection that may see them.
        public var presence: [PresenceEntry]?

        public init(target: String, epoch: String, seq: UInt64, resumed: Bool, presence: [PresenceEntry]? = nil) {
            self.target = target
            self.epoch = epoch
            self.seq = seq
            self.resumed = resumed
            self.presence = presence
        }
    }

    /// Why a subscription ended without being asked to.
    public enum UnsubscribeReason: String, Sendable, Hashable, CaseIterable {
        /// The target was deleted.
        case deleted
    }

    /// `snapshot`: a subscription's starting point.
    public struct Snapshot: Sendable, Hashable {
        public var target: String
        public var epoch: String
        public var seq: UInt64
        public var content: SnapshotContent
        public var reason: SnapshotReason?
        /// For a subscribe with a cursor: false (the cursor could not be resumed from).
        public var resumed: Bool?
        /// The target's presence members at `seq` (§15), for a connection that may see them.
        public var presence: [PresenceEntry]?

        public init(
            target: String, epoch: String, seq: UInt64, content: SnapshotContent, reason: SnapshotReason?, resumed: Bool?,
            presence: [PresenceEntry]? = nil
        ) {
            self.target = target
            self.epoch = epoch
            self.seq = seq
            self.content = content
            self.reason = reason
            self.resumed = resumed
            self.presence = presence
        }
    }

    /// What a snapshot holds.
    public enum SnapshotContent: Sendable, Hashable {
        /// A whole-target subscription: the bindings and every reachable instance.
        case target(bindings: [Binding], instances: [InstanceState])
        /// A path subscription: the value at each path, in the subscription's order (§4 form).
        case values([PathValue])
    }

    /// A path and its value as §4 encodes it.
    public struct PathValue: Sendable, Hashable {
        public var path: String
        public var value: JSONValue

        public init(path: String, value: JSONValue) {
            self.path = path
            self.value = value
        }
    }

    /// Why a snapshot was sent without a request.
    public enum SnapshotReason: String, Sendable, Hashable, CaseIterable {
        /// The subscription lagged; its batches were replaced by this snapshot (§11).
        case catchUp
    }

    /// `batch`: the effects of one advance a subscriber may see, and the commands it applied.
    public struct Batch: Sendable, Hashable {
        public var target: String
        public var epoch: String
        public var seq: UInt64
        public var effects: [Effect]
        public var commands: [UInt64]
        /// Who sent each of `commands`, in the same order (nil: not recorded for that command);
        /// nil when the daemon records no authors (§17).
        public var authors: [Author?]?
        /// Seconds the target's state machine ran in this advance (0: none).
        public var elapsed: Double
        /// Events the state machine reported during the advance, in order.
        public var events: [ReportedEvent]
        /// The layers whose current state changed, with their new state.
        public var layers: [LayerState]
        /// Whether the target's state machine needs no further advance.
        public var settled: Bool

        public init(
            target: String, epoch: String, seq: UInt64, effects: [Effect], commands: [UInt64], authors: [Author?]? = nil,
            elapsed: Double = 0, events: [ReportedEvent] = [], layers: [LayerState] = [], settled: Bool = true
        ) {
            self.elapsed = elapsed
            self.events = events
            self.layers = layers
            self.settled = settled
            self.target = target
            self.epoch = epoch
            self.seq = seq
            self.effects = effects
            self.commands = commands
            self.authors = authors
        }

        /// A change batch as a subscriber receives it, with `effects` already filtered, and
        /// with its commands' authors when `withAuthors`. Its fields are set here, not through
        /// `init(target:…)`: a delegating initializer copied the whole value once more.
        public init(_ batch: borrowing ChangeBatch, epoch: String, effects: [Effect], withAuthors: Bool = false) {
            target = batch.target
            self.epoch = epoch
            seq = batch.seq
            self.effects = effects
            commands = batch.applied
            if withAuthors {
                let recorded = batch.authors
                authors = batch.applied.map { recorded[$0] }
            } else {
                authors = nil
            }
            elapsed = batch.elapsed
            events = batch.events
            layers = batch.layers
            settled = batch.settled
        }
    }

    /// `ack`: the command `command` applied in the batch `seq`.
    public struct Ack: Sendable, Hashable {
        public var target: String
        public var seq: UInt64
        public var command: UInt64
        /// A transaction's ack (§16): every command number, in order (`command` is the first).
        public var commands: [UInt64]?

        public init(target: String, seq: UInt64, command: UInt64, commands: [UInt64]? = nil) {
            self.target = target
            self.seq = seq
            self.command = command
            self.commands = commands
        }
    }

    /// `value`: a property's value and type.
    public struct ValueReply: Sendable, Hashable {
        public var target: String
        public var seq: UInt64
        public var path: String
        public var valueType: DataType
        public var value: PropertyValue

        public init(target: String, seq: UInt64, path: String, valueType: DataType, value: PropertyValue) {
            self.target = target
            self.seq = seq
            self.path = path
            self.valueType = valueType
            self.value = value
        }
    }
}
