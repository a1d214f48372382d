extension StateMachineDefinition {
    /// The state machine `name` of the artboard `artboard` (nil: the file's first artboard) as
    /// the graph describes it; nil when the graph has no such artboard or state machine.
    /// Ownership follows Rive's import order (each object attaches to the latest object of the
    /// type that owns it); objects that do not fit where they are, unknown types and
    /// out-of-range ids are skipped, so a malformed graph gives a smaller definition, never a
    /// crash.
    public static func build(from graph: RiveGraph, artboard: String?, stateMachine name: String) -> StateMachineDefinition? {
        var builder = StateMachineGraphReader(
            wantedArtboard: { index, artboardName in artboard.map { $0 == artboardName } ?? (index == 0) },
            wantedMachine: { _, machineName in machineName == name })
        for object in graph.objects { builder.add(object) }
        builder.finishMachine()
        return builder.definition?.withTimelines(from: graph, artboard: builder.artboardIndex)
    }

    /// The state machine at `machine` among the state machines of the file's artboard at
    /// `artboard` (the indices a `NestedArtboard` and its `NestedStateMachine` use).
    public static func build(from graph: RiveGraph, artboardIndex: Int, machineIndex: Int) -> StateMachineDefinition? {
        var builder = StateMachineGraphReader(
            wantedArtboard: { index, _ in index == artboardIndex }, wantedMachine: { index, _ in index == machineIndex })
        for object in graph.objects { builder.add(object) }
        builder.finishMachine()
        return builder.definition?.withTimelines(from: graph, artboard: builder.artboardIndex)
    }

    /// The definition with the artboard's timelines (keyframes, callback keyframes) read by
    /// the animation player, and its events numbered in Rive's component id space.
    private func withTimelines(from graph: RiveGraph, artboard index: Int?) -> StateMachineDefinition {
        let artboards = ArtboardObjects.artboards(in: graph)
        guard let index, artboards.indices.contains(index) else { return self }
        var definition = self
        let artboard = artboards[index]
        definition.timelines = LinearAnimation.animations(in: artboard)
        for layer in definition.layers.indices {
            for state in definition.layers[layer].states.indices {
                for (index, transition) in definition.layers[layer].states[state].transitions.enumerated() {
                    guard let id = transition.interpolatorId, let object = artboard.component(id) else { continue }
                    definition.layers[layer].states[state].transitions[index].interpolator = KeyFrameInterpolator(object)
                }
            }
        }
        definition.events = [:]
        for (id, graphIndex) in artboard.components.enumerated() {
            guard let graphIndex, RiveDefinitions.type(artboard.objects[graphIndex].typeKey, isA: Keys.event) else { continue }
            definition.events[id] = artboard.objects[graphIndex].string(4) ?? ""
        }
        return definition
    }
}

/// Walks the object stream once, keeping the latest owner of each kind.
struct StateMachineGraphReader {
    /// Whether the artboard at an index (file order) with a name is the one wanted.
    let wantedArtboard: @Sendable (Int, String) -> Bool
    /// Whether the state machine at an index (in its artboard) with a name is the one wanted.
    let wantedMachine: @Sendable (Int, String) -> Bool
    var artboardCount = 0
    var machineCount = 0
    /// The file index of the artboard the definition comes from.
    var artboardIndex: Int?
    var inArtboard = false
    var inMachine = false
    var found = false
    var definition: StateMachineDefinition?
    private var machine = StateMachineDefinition(
        name: "", inputs: [], layers: [], listeners: [], bindables: [], dataBinds: [], animations: [], events: [:],
        artboardBinds: [], components: [], nestedArtboards: [], timelines: [])
    /// The latest layer component: a state (layer, state) or a transition (layer, state, transition).
    private var latestLayerComponent: (layer: Int, state: Int, transition: Int?)?
    private var latestCondition: (layer: Int, state: Int, transition: Int, condition: Int)?
    private var latestBindable: Int?
    private var latestBindTarget: DataBindDefinition.Target = .none

    init(wantedArtboard: @escaping @Sendable (Int, String) -> Bool, wantedMachine: @escaping @Sendable (Int, String) -> Bool) {
        self.wantedArtboard = wantedArtboard
        self.wantedMachine = wantedMachine
    }

    mutating func add(_ object: RiveObject) {
        let type = object.typeKey
        if type == Keys.artboard {
            finishMachine()
            artboardCount += 1
            let name = object.string(4) ?? ""
            inArtboard = !found && wantedArtboard(artboardCount - 1, name)
            machineCount = 0
            if inArtboard { machine.components = [object] }
            return
        }
        guard inArtboard else { return }
        if type == Keys.stateMachine {
            finishMachine()
            let name = object.string(55) ?? ""
            inMachine = !found && wantedMachine(machineCount, name)
            machineCount += 1
            if inMachine { machine.name = name }
            return
        }
        if type == Keys.linearAnimation {
            finishMachine()
            machine.animations.append(Self.animation(object))
            return
        }
        if inMachine {
            addToMachine(object)
        } else {
            addToArtboard(object)
        }
    }

    /// Ends the state machine being read (if it is the wanted one, the definition is done).
    mutating func finishMachine() {
        if inMachine {
            found = true
            inMachine = false
        }
        if found, definition == nil || inArtboard {
            definition = machine
            artboardIndex = artboardCount - 1
        }
    }

    private mutating func addToArtboard(_ object: RiveObject) {
        if object.typeKey == Keys.dataBindContext {
            if case .component = latestBindTarget { machine.artboardBinds.append(Self.dataBind(object, target: latestBindTarget)) }
            return
        }
        guard RiveDefinitions.type(object.typeKey, isA: Keys.component) else { return }
        let id = machine.components.count
        machine.components.append(object)
        if RiveDefinitions.type(object.typeKey, isA: Keys.nestedArtboard), let artboard = object.uint(197) {
            machine.nestedArtboards.append(
                NestedArtboardDefinition(
                    component: id, artboard: Int(clamping: artboard), dataBindPath: Self.ids(object.bytes(582)), stateMachines: []))
        } else if object.typeKey == Keys.nestedStateMachine, let parent = object.uint(5), let animation = object.uint(198),
            let nested = machine.nestedArtboards.lastIndex(where: { $0.component == Int(clamping: parent) })
        {
            machine.nestedArtboards[nested].stateMachines.append(Int(clamping: animation))
        }
        latestBindTarget = .component(id)
        if RiveDefinitions.type(object.typeKey, isA: Keys.event) { machine.events[id] = object.string(4) ?? "" }
    }

    private mutating func addToMachine(_ object: RiveObject) {
        let type = object.typeKey
        if type == Keys.dataBindContext {
            machine.dataBinds.append(Self.dataBind(object, target: latestBindTarget))
            return
        }
        latestBindTarget = .none
        if RiveDefinitions.type(type, isA: Keys.bindableProperty) {
            latestBindable = machine.bindables.count
            latestBindTarget = .bindable(machine.bindables.count)
            machine.bindables.append(BindableDefinition(typeKey: type, value: Self.bindableValue(object)))
        } else if let input = Self.input(object) {
            machine.inputs.append(input)
        } else if type == Keys.layer {
            machine.layers.append(LayerDefinition(name: object.string(138) ?? "", states: [], entry: nil, any: nil))
            latestLayerComponent = nil
        } else if RiveDefinitions.type(type, isA: Keys.layerState) {
            addState(object)
        } else if RiveDefinitions.type(type, isA: Keys.stateTransition) {
            addTransition(object)
        } else if RiveDefinitions.type(type, isA: Keys.transitionCondition) {
            addCondition(object)
        } else if RiveDefinitions.type(type, isA: Keys.transitionComparator) {
            addComparator(object)
        } else if RiveDefinitions.type(type, isA: Keys.listener) {
            machine.listeners.append(Self.listener(object))
        } else if RiveDefinitions.type(type, isA: Keys.listenerInputType) {
            addListenerSource(object)
        } else if RiveDefinitions.type(type, isA: Keys.listenerAction) {
            addListenerAction(object)
        } else if RiveDefinitions.type(type, isA: Keys.fireAction) {
            let atEnd = object.uint(393) == 1
            if type == Keys.fireEvent, let event = object.uint(392) {
                addScheduled(FireActionDefinition(action: .event(Int(clamping: event)), atEnd: atEnd))
            } else if type == Keys.fireTrigger {
                addScheduled(FireActionDefinition(action: .trigger(Self.ids(object.bytes(871))), atEnd: atEnd))
            }
        }
    }

    private mutating func addState(_ object: RiveObject) {
        guard let layer = machine.layers.indices.last else { return }
        let kind: LayerState.Kind
        switch object.typeKey {
        case Keys.entryState: kind = .entry
        case Keys.anyState: kind = .any
        case Keys.exitState: kind = .exit
        case Keys.animationState: kind = .animation
        case Keys.blendStateDirect: kind = .blendDirect
        default: kind = RiveDefinitions.type(object.typeKey, isA: Keys.blendState1D) ? .blend1D : .unknown
        }
        let index = machine.layers[layer].states.count
        if kind == .entry { machine.layers[layer].entry = index }
        if kind == .any { machine.layers[layer].any = index }
        let animation = kind == .animation ? object.uint(149).map { Int(clamping: $0) } : nil
        machine.layers[layer].states.append(StateDefinition(kind: kind, animation: animation, transitions: [], actions: []))
        latestLayerComponent = (layer, index, nil)
    }

    private mutating func addTransition(_ object: RiveObject) {
        guard let (layer, state, _) = latestLayerComponent else { return }
        let transition = TransitionDefinition(
            stateTo: Int(clamping: object.uint(151) ?? UInt64(UInt32.max)), flags: object.uint(152) ?? 0,
            duration: object.uint(158) ?? 0, exitTime: object.uint(160) ?? 0, conditions: [], actions: [],
            interpolatorId: object.uint(350).flatMap { $0 >= UInt64(UInt32.max) ? nil : UInt32($0) })
        let index = machine.layers[layer].states[state].transitions.count
        machine.layers[layer].states[state].transitions.append(transition)
        latestLayerComponent = (layer, state, index)
    }

    private mutating func addCondition(_ object: RiveObject) {
        guard let latest = latestLayerComponent, let transition = latest.transition else { return }
        let (layer, state) = (latest.layer, latest.state)
        let input = Int(clamping: object.uint(155) ?? UInt64(UInt32.max))
        let operation = ConditionOperation(rawValue: object.uint(object.typeKey == Keys.viewModelCondition ? 650 : 156) ?? 0) ?? .equal
        let condition: ConditionDefinition
        switch object.typeKey {
        case Keys.triggerCondition: condition = .trigger(input: input)
        case Keys.numberCondition: condition = .input(input: input, operation: operation, value: object.float(157) ?? 0)
        case Keys.boolCondition: condition = .input(input: input, operation: operation, value: 1)
        case Keys.viewModelCondition:
            condition = .viewModel(left: .unsupported(typeKey: 0), right: .unsupported(typeKey: 0), operation: operation)
        default: condition = .unsupported(typeKey: object.typeKey)
        }
        var conditions = machine.layers[layer].states[state].transitions[transition].conditions
        conditions.append(condition)
        machine.layers[layer].states[state].transitions[transition].conditions = conditions
        latestCondition = (layer, state, transition, conditions.count - 1)
        comparatorsSeen = 0
    }

    private var comparatorsSeen = 0

    private mutating func addComparator(_ object: RiveObject) {
        guard let (layer, state, transition, index) = latestCondition,
            case .viewModel(var left, var right, let operation) = machine.layers[layer].states[state].transitions[transition]
                .conditions[index]
        else { return }
        let comparator = Self.comparator(object, bindable: latestBindable)
        if comparatorsSeen == 0 { left = comparator } else if comparatorsSeen == 1 { right = comparator } else { return }
        comparatorsSeen += 1
        machine.layers[layer].states[state].transitions[transition].conditions[index] = .viewModel(
            left: left, right: right, operation: operation)
    }

    private mutating func addListenerSource(_ object: RiveObject) {
        guard let listener = machine.listeners.indices.last else { return }
        switch object.typeKey {
        case Keys.listenerInputViewModel: machine.listeners[listener].sources.append(.viewModel(Self.ids(object.bytes(963))))
        default: machine.listeners[listener].sources.append(.inert(listenerType: object.uint(965) ?? 0))
        }
    }

    private mutating func addListenerAction(_ object: RiveObject) {
        let action: ListenerActionDefinition
        switch object.typeKey {
        case Keys.viewModelChange:
            guard let bindable = latestBindable else { return }
            action = .viewModelChange(bindable: bindable)
        case Keys.listenerFireEvent: action = .fireEvent(Int(clamping: object.uint(389) ?? UInt64(UInt32.max)))
        case Keys.triggerChange: action = .setInput(input: Int(clamping: object.uint(227) ?? UInt64(UInt32.max)), value: nil)
        case Keys.boolChange:
            action = .setInput(input: Int(clamping: object.uint(227) ?? UInt64(UInt32.max)), value: Float(object.uint(228) ?? 1))
        case Keys.numberChange:
            action = .setInput(input: Int(clamping: object.uint(227) ?? UInt64(UInt32.max)), value: object.float(229) ?? 0)
        default: action = .unsupported(typeKey: object.typeKey)
        }
        let flags = object.uint(980) ?? 0
        let parent = (flags >> 1) & 3
        if parent == 1 || parent == 2 {
            addScheduled(FireActionDefinition(action: .listenerAction(action), atEnd: flags & 1 == 1))
        } else if let listener = machine.listeners.indices.last {
            machine.listeners[listener].actions.append(action)
        }
    }

    /// Attaches a scheduled action to the latest state or transition.
    private mutating func addScheduled(_ action: FireActionDefinition) {
        guard let (layer, state, transition) = latestLayerComponent else { return }
        if let transition {
            machine.layers[layer].states[state].transitions[transition].actions.append(action)
        } else {
            machine.layers[layer].states[state].actions.append(action)
        }
    }
}
