/// Who made a change in a batch: a client's command, or the target's state machine (its
/// transitions, listeners, data binds, converters and timelines: Rive's "updated as a result
/// of a binding").
public enum EffectOrigin: Sendable, Hashable {
    case command
    case stateMachine
}

/// A Rive event reported by a state machine during an advance (a timeline event, a listener
/// or state action that reports one), in the order Rive reports them.
public struct ReportedEvent: Sendable, Hashable {
    /// One custom property of the event, in file order.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var value: PropertyValue

        public init(name: String, value: PropertyValue) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    /// Seconds between the moment the event fired and the end of the advance.
    public var delay: Float
    public var properties: [Property]

    public init(name: String, delay: Float = 0, properties: [Property] = []) {
        self.name = name
        self.delay = delay
        self.properties = properties
    }
}

/// A state machine layer's current state.
public struct LayerState: Sendable, Hashable {
    /// What kind of state the layer is in, in Rive's words.
    public enum Kind: String, Sendable, Hashable {
        case entry, any, exit, animation, blend1D, blendDirect, unknown
    }

    /// The layer's index in its state machine.
    public var layer: Int
    /// The layer's name.
    public var layerName: String
    /// The state's index among the layer's states.
    public var state: Int
    public var kind: Kind
    /// The animation an animation state plays, if any.
    public var animation: String?

    public init(layer: Int, layerName: String, state: Int, kind: Kind, animation: String? = nil) {
        self.layer = layer
        self.layerName = layerName
        self.state = state
        self.kind = kind
        self.animation = animation
    }
}
