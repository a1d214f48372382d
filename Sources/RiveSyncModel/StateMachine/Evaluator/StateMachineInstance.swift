/// A running state machine: Rive's `StateMachineInstance` evaluated headless, pure and
/// deterministic (no clock, no I/O). It reads and writes the view-model instances bound to it
/// through a `ViewModelAccess`; `advance(by:access:)` follows Rive's `advanceAndApply`: it
/// applies the listeners reported since the last advance (view-model changes, events), runs
/// each layer (animation time, transitions in Rive's order, state and transition actions),
/// tries the layers once more, then resets what lasts one frame (a fired trigger is consumed,
/// "changed" flags clear). Numbers are computed in `Float`, as Rive does.
public struct StateMachineInstance: Sendable, Hashable {
    public let definition: StateMachineDefinition
    /// Each bind's own copy of the converter it names.
    var bindConverters: [BindSlot: DataConverter]
    /// The values of the state machine's own to-target binds through a converter with time,
    /// by bind index, as their last conversion left them.
    var timedBindableValues: [Int: PropertyValue] = [:]
    /// The random numbers formulas draw.
    var random = SeededRandom()
    var layers: [LayerInstance]
    var inputs: [InputValue]
    /// View-model values changed since the last frame reset (Rive's `hasChanged`).
    var changed: Set<ValueLocation> = []
    /// Values a transition condition already used in a layer this frame (`isUsedInLayer`).
    var used: Set<UsedValue> = []
    /// Listeners reported by a change and not run yet, in report order.
    var reportedListeners: [Int] = []
    /// Events reported and not yet delivered to event listeners: the component that reported
    /// them (0 for this artboard, else a nested artboard) and the event's id in its artboard.
    var pendingEvents: [PendingEvent] = []
    /// Events reported during the current advance, in order.
    var reported: [ReportedEvent] = []
    /// This artboard's events delivered to its listeners in the current frame (by id): as
    /// Rive's `notifyEventListeners` does, they bubble up to the state machine of the artboard
    /// that nests this one, at once.
    var delivered: [Int] = []
    /// Whether the last advance said the state machine needs no further advance (false
    /// before the first advance).
    public internal(set) var isSettled = false
    /// Bound component properties' values, as data binds and target writes left them.
    var componentValues: [BoundComponentProperty: PropertyValue] = [:]
    /// Whether the next advance is the first since a bind (each bind's precedence applies).
    var bindPassPending = true
    /// Artboard data binds whose target was written since the last advance.
    var writtenTargets: Set<Int> = []
    /// The component properties the state machine observes (bound or compared).
    let observedComponents: Set<BoundComponentProperty>
    /// Observed component properties an animation changed and no bind has pushed yet.
    var animatedComponents: Set<BoundComponentProperty> = []
    /// The values the artboard's to-target binds wrote at the start of this frame: Rive
    /// applies a bind whose source changed after the animations, so it beats them once.
    var boundThisFrame: [BoundComponentProperty: PropertyValue] = [:]
    /// The nodes' computed properties the state machine reads, and what they read.
    let transforms: ComputedTransforms
    /// View-model values changed since the artboard's binds last ran (tracked only when a
    /// node's computed property is read): the update pass carries them to the node properties
    /// the computed transforms read.
    var changedSinceBinds: Set<ValueLocation> = []

    /// The state machines of the artboard's nested artboards, with their data context paths.
    var nested: [NestedStateMachine] = []

    /// A state machine of `definition` at its entry states, before any advance, with the
    /// state machines of its nested artboards (nested at most `depth` levels deep).
    public init(definition: StateMachineDefinition, graph: RiveGraph, depth: Int = 8) {
        self.init(definition: definition, graph: graph, converters: DataConverters(graph: graph), depth: depth)
    }

    private init(definition: StateMachineDefinition, graph: RiveGraph, converters: DataConverters, depth: Int) {
        self.definition = definition
        bindConverters = Self.bindConverters(of: definition, in: converters)
        transforms = ComputedTransforms(definition: definition)
        observedComponents = Self.observedComponents(of: definition).union(transforms.inputs)
        layers = definition.layers.map { LayerInstance(layer: $0) }
        inputs = definition.inputs.map { InputValue($0.kind) }
        guard depth > 0 else { return }
        for artboard in definition.nestedArtboards {
            for index in artboard.stateMachines {
                guard let child = StateMachineDefinition.build(from: graph, artboardIndex: artboard.artboard, machineIndex: index)
                else { continue }
                nested.append(
                    NestedStateMachine(
                        component: artboard.component, path: artboard.dataBindPath,
                        machine: StateMachineInstance(definition: child, graph: graph, converters: converters, depth: depth - 1)))
            }
        }
    }

    /// What one advance did.
    public struct Outcome: Sendable, Hashable {
        /// Events reported during the advance, in order.
        public var events: [ReportedEvent]
        /// The layers whose state changed during the advance (indices).
        public var changedLayers: [Int]
        /// Whether the state machine needs no further advance.
        public var settled: Bool
    }

    /// Each layer's current state.
    public var layerStates: [LayerState] {
        layers.indices.map { index in
            let layer = definition.layers[index]
            let state = layers[index].state
            let kind = layer.states.indices.contains(state) ? layer.states[state].kind : .unknown
            let animation = layer.states.indices.contains(state) ? layer.states[state].animation : nil
            let name = animation.flatMap { definition.animations.indices.contains($0) ? definition.animations[$0].name : nil }
            return LayerState(layer: index, layerName: layer.name, state: state, kind: kind, animation: name)
        }
    }

    /// Tells the state machine that values changed outside it (a client's writes and fires
    /// applied before this advance): their listeners run and "changed" conditions see them.
    public mutating func noteChanged(_ locations: [ValueLocation]) {
        for location in locations { markChanged(location) }
    }

    /// Advances by `seconds` as Rive's `advanceAndApply` does.
    public mutating func advance(by seconds: Float, access: inout some ViewModelAccess) -> Outcome {
        reported = []
        delivered = []
        for index in layers.indices { layers[index].changedOnAdvance = false }
        let converters = advanceConverters(seconds, access: access)
        let timed = updateTimedBindableBinds(moved: converters.moved, access: access)
        let moving = updateArtboardBinds(moved: converters.moved, access: &access) || timed
        var keepGoing = advanceLayers(seconds, newFrame: true, access: &access) || seconds == 0 || converters.running || moving
        if advanceNested(seconds, newFrame: true, access: &access) { keepGoing = true }
        updatePass(access: &access)
        if tryChangeState(access: &access) {
            _ = advanceLayers(0, newFrame: false, access: &access)
            keepGoing = true
        }
        if advanceNested(0, newFrame: false, access: &access) { keepGoing = true }
        updatePass(access: &access)
        resetFrame()
        let changedLayers = layers.indices.filter { layers[$0].changedOnAdvance }
        let settled = !(keepGoing || !pendingEvents.isEmpty || !reportedListeners.isEmpty)
        isSettled = settled
        return Outcome(events: reported, changedLayers: changedLayers, settled: settled)
    }

    /// Rive's `advance(seconds, newFrame)`: reported listeners and events first (on a new
    /// frame), then every layer.
    mutating func advanceLayers(_ seconds: Float, newFrame: Bool, access: inout some ViewModelAccess) -> Bool {
        if newFrame { applyEvents(access: &access) }
        var needsAdvance = false
        for index in layers.indices where advanceLayer(index, seconds, access: &access) { needsAdvance = true }
        return needsAdvance
    }

    /// Rive's `tryChangeState`: one more chance for every layer to take a transition.
    mutating func tryChangeState(access: inout some ViewModelAccess) -> Bool {
        var changedState = false
        for index in layers.indices where updateState(index, access: &access) { changedState = true }
        return changedState
    }

    /// Runs the listeners reported since the last frame (and those their actions report), up
    /// to Rive's 100 rounds.
    private mutating func applyEvents(access: inout some ViewModelAccess) {
        var round = 0
        while !(pendingEvents.isEmpty && reportedListeners.isEmpty), round < 100 {
            round += 1
            let events = pendingEvents
            let listeners = reportedListeners
            pendingEvents = []
            reportedListeners = []
            for pending in events {
                hear(pending, access: &access)
                if pending.target == 0 { delivered.append(pending.event) }
            }
            for listener in listeners { perform(listener: listener, access: &access) }
        }
    }

    /// Runs the listeners that hear an event.
    private mutating func hear(_ event: PendingEvent, access: inout some ViewModelAccess) {
        for (index, listener) in definition.listeners.enumerated()
        where listener.target == event.target && listener.sources.contains(.event(event.event)) {
            perform(listener: index, access: &access)
        }
    }

    /// The end of a frame: fired triggers are consumed, "changed" flags and layer uses clear.
    private mutating func resetFrame() {
        changed = []
        changedSinceBinds = []
        boundThisFrame = [:]
        used = []
        resetCustomPropertyTriggers()
        for index in inputs.indices { inputs[index].fired = false }
        for index in nested.indices {
            nested[index].machine.resetFrame()
            nested[index].machine.reported = []
            nested[index].machine.delivered = []
        }
    }

    /// Runs the nested artboards' state machines (Rive's `advance`, without their own frame
    /// end) in their data contexts; the values each one changes count as changed for this
    /// state machine and the other nested ones too (one frame, shared view models).
    private mutating func advanceNested(_ seconds: Float, newFrame: Bool, access: inout some ViewModelAccess) -> Bool {
        var keepGoing = false
        for index in nested.indices {
            var pushed = false
            if !nested[index].path.isEmpty {
                guard let location = access.locate(nested[index].path), case .viewModel(let context?) = access.value(at: location)
                else { continue }
                access.contexts.append(context)
                pushed = true
            }
            if newFrame, nested[index].machine.bindPassPending {
                nested[index].machine.bind(access: access)
            } else if !nested[index].machine.watchedResolved {
                nested[index].machine.resolveWatched(access: access)
            }
            nested[index].machine.noteChanged(Self.ordered(changed.subtracting(nested[index].machine.changed)))
            let before = nested[index].machine.changed
            if newFrame {
                // The nested artboard's binds, as this artboard's run at the start of a frame.
                let converters = nested[index].machine.advanceConverters(seconds, access: access)
                let timed = nested[index].machine.updateTimedBindableBinds(moved: converters.moved, access: access)
                let moving = nested[index].machine.updateArtboardBinds(moved: converters.moved, access: &access) || timed
                if converters.running || moving { keepGoing = true }
            }
            let heardBefore = nested[index].machine.delivered.count
            if nested[index].machine.advanceLayers(seconds, newFrame: newFrame, access: &access) { keepGoing = true }
            if nested[index].machine.advanceNested(seconds, newFrame: newFrame, access: &access) { keepGoing = true }
            nested[index].machine.updatePass(access: &access)
            if newFrame, nested[index].machine.tryChangeState(access: &access) {
                _ = nested[index].machine.advanceLayers(0, newFrame: false, access: &access)
                nested[index].machine.updatePass(access: &access)
                keepGoing = true
            }
            if pushed { access.contexts.removeLast() }
            // The events a nested artboard's listeners were told of reach this state machine's
            // listeners on it.
            for event in nested[index].machine.delivered.dropFirst(heardBefore) {
                hear(PendingEvent(target: nested[index].component, event: event), access: &access)
            }
            for location in Self.ordered(nested[index].machine.changed.subtracting(before)) { markChanged(location) }
            if !nested[index].machine.reportedListeners.isEmpty || !nested[index].machine.pendingEvents.isEmpty { keepGoing = true }
        }
        return keepGoing
    }

    /// Locations in a fixed order (a set's own order differs from process to process), so
    /// listeners are reported in the same order on every machine.
    static func ordered(_ locations: Set<ValueLocation>) -> [ValueLocation] {
        locations.sorted { ($0.instance.rawValue, $0.property) < ($1.instance.rawValue, $1.property) }
    }

    /// Records that a value changed and reports the listeners that watch it.
    mutating func markChanged(_ location: ValueLocation) {
        changed.insert(location)
        changedSinceBinds.insert(location)
        for (index, listener) in definition.listeners.enumerated() where watches(listener, location) {
            reportedListeners.append(index)
        }
    }

    /// Whether a listener watches the value at `location` (its paths as resolved at bind).
    private func watches(_ listener: ListenerDefinition, _ location: ValueLocation) -> Bool {
        listener.sources.contains { source in
            guard case .viewModel(let path) = source else { return false }
            return watchedLocations[path] == location
        }
    }

    /// The locations the listeners' paths lead to, resolved at bind (`bind(access:)`).
    var watchedLocations: [[Int]: ValueLocation] = [:]
    /// Whether `watchedLocations` were resolved since this value was made (a restored nested
    /// state machine resolves them at its next advance).
    var watchedResolved = false

    /// Resolves what the state machine watches against the bound instances (call after every
    /// bind).
    public mutating func bind(access: some ViewModelAccess) {
        bindPassPending = true
        isSettled = false
        resetConverters()
        for index in nested.indices { nested[index].machine.bindPassPending = true }
        resolveWatched(access: access)
    }

    /// Resolves the view-model values the listeners watch against the bound instances (or,
    /// for a nested artboard's state machine, its data context).
    mutating func resolveWatched(access: some ViewModelAccess) {
        watchedLocations = [:]
        for listener in definition.listeners {
            for case .viewModel(let path) in listener.sources {
                if let location = access.locate(path) { watchedLocations[path] = location }
            }
        }
        watchedResolved = true
    }
}

/// An event waiting for the listeners that hear it.
struct PendingEvent: Sendable, Hashable {
    var target: Int
    var event: Int
}

/// A nested artboard's state machine and the view-model path its data context starts at.
struct NestedStateMachine: Sendable, Hashable {
    /// The nested artboard's component id in the parent artboard.
    var component: Int
    var path: [Int]
    var machine: StateMachineInstance
}

/// A layer's running state.
struct LayerInstance: Sendable, Hashable {
    var state: Int
    var clock: AnimationClock?
    /// The same animation in the animation player, for the events keyed on its timeline.
    var timeline: LinearAnimationInstance?
    /// The transition being mixed, its mix, and whether it completed.
    var transition: TransitionDefinition?
    /// Where `transition` is in the layer (the state it leaves and its index there).
    var transitionOrigin: TransitionOrigin?
    var mix: Float = 1
    /// The state left by the latest transition, mixed out while its mix runs.
    var mixing: LayerMix?
    var transitionCompleted = true
    var waitingForExit = false
    var changedOnAdvance = false

    init(layer: LayerDefinition) {
        state = layer.entry ?? 0
    }
}

/// A transition's place: the state it belongs to and its index among that state's transitions.
struct TransitionOrigin: Sendable, Hashable {
    var state: Int
    var index: Int
}

/// A legacy input's value.
struct InputValue: Sendable, Hashable {
    var number: Float = 0
    var fired = false

    init(_ kind: StateMachineInputDefinition.Kind) {
        switch kind {
        case .number(let value): number = value
        case .boolean(let value): number = value ? 1 : 0
        case .trigger: break
        }
    }
}

/// A value a condition used in a layer this frame: a view-model value or an input.
enum UsedValue: Sendable, Hashable {
    case value(ValueLocation, layer: Int)
    case input(Int, layer: Int)
}
