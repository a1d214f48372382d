/// A state machine as a `.riv` file describes it, in Rive's words: inputs, layers with their
/// states and transitions, listeners with their actions, and the bindable properties and data
/// binds that connect them to view models. Built from a file's `RiveGraph`
/// (`StateMachineDefinition.build`); ids are indices into the lists here.
public struct StateMachineDefinition: Sendable, Hashable {
    public var name: String
    public var inputs: [StateMachineInputDefinition]
    public var layers: [LayerDefinition]
    public var listeners: [ListenerDefinition]
    /// The state machine's bindable properties (targets of its data binds), in file order.
    public var bindables: [BindableDefinition]
    /// The state machine's own data binds (their targets are bindables), in file order.
    public var dataBinds: [DataBindDefinition]
    /// The artboard's animations, by the index states use (`animationId`).
    public var animations: [AnimationDefinition]
    /// The artboard's events, by component id (Rive's id space, as `ArtboardObjects` counts).
    public var events: [Int: String]
    /// The artboard's own data binds (their targets are components), in file order.
    public var artboardBinds: [DataBindDefinition]
    /// The artboard's components by id (the artboard is 0), as stored.
    public var components: [RiveObject]
    /// The artboard's nested artboards and the state machines they run.
    public var nestedArtboards: [NestedArtboardDefinition]
    /// The artboard's animations as the animation player reads them (keyframes and callback
    /// keyframes), by `animationId`.
    public var timelines: [LinearAnimation]
}

/// A `NestedArtboard` and its `NestedStateMachine`s.
public struct NestedArtboardDefinition: Sendable, Hashable {
    /// Its component id in the parent artboard.
    public var component: Int
    /// The file's artboard it shows (index in file order).
    public var artboard: Int
    /// The view-model path its data context starts at (empty: the parent's context).
    public var dataBindPath: [Int]
    /// The nested artboard's state machines it runs (indices among that artboard's).
    public var stateMachines: [Int]
}

/// A legacy state machine input (`StateMachineNumber`, `StateMachineBool`, `StateMachineTrigger`).
public struct StateMachineInputDefinition: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case number(Float)
        case boolean(Bool)
        case trigger
    }

    public var name: String
    public var kind: Kind
}

/// A `StateMachineLayer`: its states in file order (the ids transitions use).
public struct LayerDefinition: Sendable, Hashable {
    public var name: String
    public var states: [StateDefinition]
    /// The `EntryState`'s and `AnyState`'s indices (nil when the layer has none).
    public var entry: Int?
    public var any: Int?
}

/// A `LayerState`: entry, any, exit, animation or blend state, with its transitions and the
/// actions it fires when entered or left.
public struct StateDefinition: Sendable, Hashable {
    public var kind: LayerState.Kind
    /// The animation an `AnimationState` plays (index into the artboard's animations).
    public var animation: Int?
    public var transitions: [TransitionDefinition]
    public var actions: [FireActionDefinition]
}

/// A `StateTransition`: where it goes, its flags, duration and exit time, conditions and actions.
public struct TransitionDefinition: Sendable, Hashable {
    public var stateTo: Int
    /// `StateTransitionFlags`: disabled 1, duration in percent 2, exit time 4, exit time in
    /// percent 8, pause on exit 16, early exit 32.
    public var flags: UInt64
    /// Milliseconds, or percent of the animation (flag 2).
    public var duration: UInt64
    /// Milliseconds, or percent of the animation (flag 8).
    public var exitTime: UInt64
    public var conditions: [ConditionDefinition]
    public var actions: [FireActionDefinition]
    /// The artboard object `interpolatorId` (key 350) names, when it is set.
    public var interpolatorId: UInt32?
    /// That object as an interpolator easing the mix (nil: linear).
    public var interpolator: KeyFrameInterpolator?

    public var isDisabled: Bool { flags & 1 != 0 }
    public var enableExitTime: Bool { flags & 4 != 0 }
    public var exitTimeIsPercentage: Bool { flags & 8 != 0 }
    public var durationIsPercentage: Bool { flags & 2 != 0 }
    public var pauseOnExit: Bool { flags & 16 != 0 }
}

/// Rive's `TransitionConditionOp`.
public enum ConditionOperation: UInt64, Sendable, Hashable {
    case equal = 0, notEqual, lessThanOrEqual, greaterThanOrEqual, lessThan, greaterThan
}

/// A transition condition.
public enum ConditionDefinition: Sendable, Hashable {
    /// `TransitionTriggerCondition` on an input.
    case trigger(input: Int)
    /// `TransitionNumberCondition` / `TransitionBoolCondition` on an input.
    case input(input: Int, operation: ConditionOperation, value: Float)
    /// `TransitionViewModelCondition`: two comparators and an operation.
    case viewModel(left: ComparatorDefinition, right: ComparatorDefinition, operation: ConditionOperation)
    /// A kind this evaluator does not run (never true).
    case unsupported(typeKey: Int)
}

/// One side of a view-model condition.
public enum ComparatorDefinition: Sendable, Hashable {
    /// `TransitionPropertyViewModelComparator`: a bindable property bound to a view-model value.
    case bindable(Int)
    /// A `TransitionValue…Comparator`'s literal.
    case number(Float)
    case boolean(Bool)
    case string(String)
    case color(UInt32)
    /// An enum value by its index among the enum's values.
    case enumIndex(UInt64)
    /// `TransitionValueTriggerComparator`.
    case trigger
    /// `TransitionSelfComparator`: true once when the left value changed.
    case changed
    /// `TransitionPropertyComponentComparator`: a property (`propertyKey`) of one of the
    /// artboard's components (`objectId`), as the artboard holds it now.
    case component(Int, propertyKey: Int)
    case unsupported(typeKey: Int)
}

/// A state or transition action (`StateMachineFireEvent`, `StateMachineFireTrigger`, or a
/// listener action scheduled on a state or transition).
public struct FireActionDefinition: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Reports the artboard's event with this component id.
        case event(Int)
        /// Fires the view-model trigger at this source path.
        case trigger([Int])
        /// A listener action performed when the state or transition starts or ends.
        case listenerAction(ListenerActionDefinition)
    }

    public var action: Action
    /// `StateMachineFireOccurance`: 0 at start, 1 at end.
    public var atEnd: Bool
}

/// A `StateMachineListener`: what it listens to and the actions it performs.
public struct ListenerDefinition: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// A view-model value changed (the path's ids).
        case viewModel([Int])
        /// The artboard's event with this component id was reported.
        case event(Int)
        /// A pointer, keyboard, focus… listener: read and kept inert.
        case inert(listenerType: UInt64)
    }

    public var name: String
    /// The component it listens on (`targetId`): for an event listener, the nested artboard
    /// whose events it hears, or the artboard itself (0).
    public var target: Int
    public var sources: [Source]
    public var actions: [ListenerActionDefinition]
}

/// What a listener does.
public enum ListenerActionDefinition: Sendable, Hashable {
    /// `ListenerViewModelChange`: pushes a bindable's value to the view model through its
    /// to-source bind.
    case viewModelChange(bindable: Int)
    /// `ListenerFireEvent`.
    case fireEvent(Int)
    /// `ListenerTriggerChange` / `ListenerBoolChange` / `ListenerNumberChange` on an input.
    case setInput(input: Int, value: Float?)
    case unsupported(typeKey: Int)
}

/// A `BindableProperty…`: a value the state machine's data binds read or write.
public struct BindableDefinition: Sendable, Hashable {
    public var typeKey: Int
    /// Its stored value (`propertyValue`), if any.
    public var value: RiveFieldValue?
}

/// A `DataBindContext`: a view-model value bound to a target property.
public struct DataBindDefinition: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        case bindable(Int)
        case component(Int)
        case none
    }

    /// The view-model index, then property indices.
    public var sourcePath: [Int]
    public var target: Target
    public var propertyKey: Int
    /// `DataBindFlags`: to source 1, two-way 2, once 4, source-to-target first 8.
    public var flags: UInt64
    /// Index into the file's data converters.
    public var converter: Int?

    public var toSource: Bool { flags & 1 != 0 }
    public var twoWay: Bool { flags & 2 != 0 }
    public var once: Bool { flags & 4 != 0 }
    public var sourceToTargetFirst: Bool { flags & 8 != 0 }
}

/// A `LinearAnimation`'s timing.
public struct AnimationDefinition: Sendable, Hashable {
    public var name: String
    public var fps: Float
    public var duration: Float
    public var speed: Float
    /// 0 one shot, 1 loop, 2 ping-pong.
    public var loop: UInt64
    public var workStart: UInt64?
    public var workEnd: UInt64?
    public var enableWorkArea: Bool

    /// Seconds from the start of the work area (or 0).
    public var startSeconds: Float { enableWorkArea ? Float(workStart ?? 0) / fps : 0 }
    public var endSeconds: Float { enableWorkArea ? Float(workEnd ?? UInt64(duration)) / fps : duration / fps }
    public var durationSeconds: Float { endSeconds - startSeconds }
}
