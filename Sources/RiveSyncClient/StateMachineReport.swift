internal import RiveSyncModel

/// A layer of a state machine the daemon runs, and the state it is in (PROTOCOL.md §19).
public struct StateMachineLayer: Sendable, Hashable {
    /// What kind of state the layer is in, in Rive's words.
    public enum Kind: String, Sendable, Hashable {
        case entry, any, exit, animation, blend1D, blendDirect, unknown
    }

    /// The layer's index in its state machine.
    public let layer: Int
    /// The layer's name.
    public let name: String
    /// The state's index among the layer's states.
    public let state: Int
    public let kind: Kind
    /// The animation an animation state plays.
    public let animation: String?

    init(_ layer: LayerState) {
        self.layer = layer.layer
        name = layer.layerName
        state = layer.state
        kind = Kind(rawValue: layer.kind.rawValue) ?? .unknown
        animation = layer.animation
    }
}

/// A Rive event the daemon's state machine reported during an advance (a timeline event, a
/// listener or a state's action), as Rive's `RiveEvent`: its name, how long ago it fired and
/// its custom properties.
public struct StateMachineEvent: Sendable, Hashable {
    public let name: String
    /// Seconds between the moment the event fired and the end of the advance.
    public let delay: Double
    /// The event's custom properties (numbers, strings, booleans) by name.
    public let properties: [String: DynamicValue]

    init(_ event: ReportedEvent) {
        name = event.name
        delay = Double(event.delay)
        properties = Dictionary(event.properties.map { ($0.name, DynamicValue($0.value)) }) { first, _ in first }
    }
}

/// The daemon's answer to a manual state machine's advance: the target's seq after it, and
/// whether its state machine is settled (needs no further advance, as Rive's
/// `advanceAndApply` returning false).
public struct AdvanceReceipt: Sendable, Hashable {
    public let target: String
    /// The target's seq after the advance (unchanged when nothing changed).
    public let seq: UInt64
    public let settled: Bool
}
