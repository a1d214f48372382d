import RiveSyncJSON

/// A file's state machines as the JSON schema format describes them (`protocol/SCHEMA.md`,
/// "State machines"), written from the graph the evaluator runs: what `rivesync inspect
/// --graph` prints for `.riv` and JSON files alike. For a state machine the format can describe,
/// reading what is written gives the same graph; what a `.riv` file holds beyond it is written
/// in Rive's names too (blend states, event listeners and actions, converters, the artboard's
/// data binds), for reading only.
extension FileSchema {
    /// The file's data converters (when it has any) and every artboard with its state
    /// machines: `{"converters": […], "artboards": [{"name", "stateMachines": […]}]}`; a state
    /// machine the file does not describe is `{"name": …}` alone. The artboard's events and
    /// data binds are written on its first described state machine.
    public var stateMachineGraphJSON: JSONValue {
        let converters = ConverterJSONWriter(schema: self)
        let names = converters.names
        var described: [JSONValue] = []
        for artboard in artboards {
            var first = true
            var machines: [JSONValue] = []
            for name in artboard.stateMachines {
                guard let definition = StateMachineDefinition.build(from: graph, artboard: artboard.name, stateMachine: name) else {
                    machines.append(.object([("name", .string(name))]))
                    continue
                }
                let writer = StateMachineJSONWriter(
                    schema: self, artboard: artboard, definition: definition, converterNames: names, writesArtboardParts: first)
                machines.append(writer.json)
                first = false
            }
            described.append(.object([("name", .string(artboard.name)), ("stateMachines", .array(machines))]))
        }
        let written = converters.json
        let members: [(String, JSONValue)] = written.isEmpty ? [] : [("converters", .array(written))]
        return .object(members + [("artboards", .array(described))])
    }
}

/// Writes one state machine definition in the description format.
struct StateMachineJSONWriter {
    let schema: FileSchema
    let artboard: ArtboardSchema
    let definition: StateMachineDefinition
    /// The file's converters' names by index (references use a unique name, else the index).
    var converterNames: [String] = []
    /// Whether to write the artboard's events and data binds (on its first state machine).
    var writesArtboardParts = true

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(definition.name))]
        let inputs = definition.inputs.map { input -> JSONValue in
            switch input.kind {
            case .number(let value):
                return .object(
                    [("name", .string(input.name)), ("type", "number")] + (value == 0 ? [] : [("value", .number(Double(value)))]))
            case .boolean(let value):
                return .object([("name", .string(input.name)), ("type", "boolean")] + (value ? [("value", .bool(true))] : []))
            case .trigger:
                return .object([("name", .string(input.name)), ("type", "trigger")])
            }
        }
        Self.add("inputs", inputs, to: &members)
        Self.add("layers", definition.layers.map(layer), to: &members)
        Self.add("listeners", definition.listeners.map(listener), to: &members)
        if writesArtboardParts {
            let events = definition.events.sorted { $0.key < $1.key }.map { JSONValue.object([("name", .string($0.value))]) }
            Self.add("events", events, to: &members)
            Self.add("dataBinds", definition.artboardBinds.map(artboardBind), to: &members)
            Self.add("animations", definition.timelines.compactMap(timeline), to: &members)
        }
        return .object(members)
    }

    /// A timeline with events keyed on it: its timing and each event's frames (others are
    /// written as the states that play them name them).
    private func timeline(_ animation: LinearAnimation) -> JSONValue? {
        var events: [JSONValue] = []
        for object in animation.keyedObjects {
            guard let name = definition.events[Int(object.objectId)] else { continue }
            for property in object.keyedProperties where property.propertyKey == KeyedCallback.eventTriggerPropertyKey {
                events += property.keyFrames.map { .object([("event", .string(name)), ("frame", .number(Double($0.frame)))]) }
            }
        }
        guard !events.isEmpty else { return nil }
        var members: [(String, JSONValue)] = [
            ("name", .string(animation.name)), ("fps", .number(Double(animation.fps))), ("duration", .number(Double(animation.duration))),
        ]
        if animation.speed != 1 { members.append(("speed", .number(Double(animation.speed)))) }
        switch animation.loop {
        case .oneShot: break
        case .loop: members.append(("loop", "loop"))
        case .pingPong: members.append(("loop", "pingPong"))
        }
        members.append(("events", .array(events)))
        return .object(members)
    }

    private static func add(_ name: String, _ items: [JSONValue], to members: inout [(String, JSONValue)]) {
        if !items.isEmpty { members.append((name, .array(items))) }
    }

    // MARK: Layers

    private func layer(_ layer: LayerDefinition) -> JSONValue {
        let names = layer.states.map(stateName)
        let states = layer.states.map { state -> JSONValue in
            var members: [(String, JSONValue)] = []
            if state.kind != .animation { members.append(("type", .string(Self.typeName(state.kind)))) }
            if let animation = animationName(state.animation) { members.append(("animation", .string(animation))) }
            Self.add("actions", state.actions.map(fireAction), to: &members)
            Self.add("transitions", state.transitions.map { transition($0, names: names) }, to: &members)
            return .object(members)
        }
        return .object([("name", .string(layer.name)), ("states", .array(states))])
    }

    private static func typeName(_ kind: LayerState.Kind) -> String {
        switch kind {
        case .entry: return "EntryState"
        case .any: return "AnyState"
        case .exit: return "ExitState"
        case .animation: return "AnimationState"
        case .blend1D: return "BlendState1D"
        case .blendDirect: return "BlendStateDirect"
        case .unknown: return "LayerState"
        }
    }

    private func animationName(_ index: Int?) -> String? {
        guard let index, definition.animations.indices.contains(index) else { return nil }
        return definition.animations[index].name
    }

    /// The name a transition's `to` uses: the animation's, or the type of a state without one.
    private func stateName(_ state: StateDefinition) -> String {
        state.kind == .animation ? animationName(state.animation) ?? "" : Self.typeName(state.kind)
    }

    private func transition(_ transition: TransitionDefinition, names: [String]) -> JSONValue {
        let target = transition.stateTo
        let to: JSONValue =
            names.indices.contains(target) && !names[target].isEmpty && names.filter({ $0 == names[target] }).count == 1
            ? .string(names[target]) : .number(Double(target))
        var members: [(String, JSONValue)] = [("to", to)]
        Self.add("conditions", transition.conditions.map(condition), to: &members)
        Self.add("actions", transition.actions.map(fireAction), to: &members)
        if transition.duration != 0 || transition.durationIsPercentage {
            members.append((transition.durationIsPercentage ? "durationPercent" : "duration", .number(Double(transition.duration))))
        }
        if transition.enableExitTime {
            members.append((transition.exitTimeIsPercentage ? "exitTimePercent" : "exitTime", .number(Double(transition.exitTime))))
        }
        for (key, flag) in [("disabled", UInt64(1)), ("pauseOnExit", 16), ("enableEarlyExit", 32)] where transition.flags & flag != 0 {
            members.append((key, true))
        }
        if transition.flags & ~UInt64(63) != 0 { members.append(("flags", .number(Double(transition.flags)))) }
        return .object(members)
    }

    // MARK: Conditions

    private static let operationNames: [ConditionOperation: String] = [
        .equal: "equal", .notEqual: "notEqual", .lessThanOrEqual: "lessThanOrEqual", .greaterThanOrEqual: "greaterThanOrEqual",
        .lessThan: "lessThan", .greaterThan: "greaterThan",
    ]

    private func withOperation(_ members: [(String, JSONValue)], _ operation: ConditionOperation) -> [(String, JSONValue)] {
        guard operation != .equal else { return members }
        var members = members
        members.insert(("op", .string(Self.operationNames[operation] ?? "equal")), at: 1)
        return members
    }

    private func condition(_ condition: ConditionDefinition) -> JSONValue {
        switch condition {
        case .trigger(let input):
            return .object([("input", .string(inputName(input)))])
        case .input(let input, let operation, let value):
            if definition.inputs.indices.contains(input), case .boolean = definition.inputs[input].kind {
                return .object([("input", .string(inputName(input)))] + (operation == .equal ? [] : [("value", .bool(false))]))
            }
            return .object(withOperation([("input", .string(inputName(input))), ("value", .number(Double(value)))], operation))
        case .viewModel(.bindable(let bindable), let right, let operation):
            let path = self.path(toTarget: bindable)
            var members: [(String, JSONValue)]
            switch right {
            case .trigger: members = [("trigger", .string(path))]
            case .changed: members = [("changed", .string(path))]
            case .bindable(let other):
                members = withOperation([("property", .string(path)), ("otherProperty", .string(self.path(toTarget: other)))], operation)
            case .unsupported(let typeKey):
                members = [("property", .string(path)), ("comparator", .string(RiveDefinitions.type(typeKey)?.name ?? String(typeKey)))]
            case .component(let id, let key):
                members = withOperation([("property", .string(path)), ("component", .string(componentProperty(id, key)))], operation)
            default:
                members = withOperation([("property", .string(path)), ("value", value(of: right, bindable: bindable))], operation)
            }
            if let converter = toTargetBind(bindable)?.converter { members.append(("converter", converterReference(converter))) }
            return .object(members)
        case .viewModel(.component(let id, let key), let right, let operation):
            // `TransitionPropertyComponentComparator` on the left: a component's property.
            var members: [(String, JSONValue)] = [("component", .string(componentProperty(id, key)))]
            switch right {
            case .bindable(let other): members.append(("otherProperty", .string(path(toTarget: other))))
            case .component(let otherID, let otherKey): members.append(("otherComponent", .string(componentProperty(otherID, otherKey))))
            default: members.append(("value", value(of: right, bindable: -1)))
            }
            return .object(withOperation(members, operation))
        case .viewModel:
            return .object([("type", "TransitionViewModelCondition")])
        case .unsupported(let typeKey):
            return .object([("type", .string(RiveDefinitions.type(typeKey)?.name ?? String(typeKey)))])
        }
    }

    private func value(of comparator: ComparatorDefinition, bindable: Int) -> JSONValue {
        switch comparator {
        case .number(let number): return .number(Double(number))
        case .boolean(let value): return .bool(value)
        case .string(let text): return .string(text)
        case .color(let color): return .string(ColorText.format(color))
        case .enumIndex(let index):
            if let values = property(atPath: toTargetBind(bindable)?.sourcePath)?.enumName.flatMap({ schema.enumSchema(named: $0) })?
                .values,
                values.indices.contains(Int(index))
            {
                return .string(values[Int(index)])
            }
            return .number(Double(index))
        case .bindable, .trigger, .changed, .component, .unsupported: return .null
        }
    }

    private func inputName(_ index: Int) -> String {
        definition.inputs.indices.contains(index) ? definition.inputs[index].name : "#\(index)"
    }

    // MARK: Listeners and actions

    private func listener(_ listener: ListenerDefinition) -> JSONValue {
        var members: [(String, JSONValue)] = listener.name.isEmpty ? [] : [("name", .string(listener.name))]
        for source in listener.sources {
            switch source {
            case .viewModel(let ids): members.append(("property", .string(path(ids))))
            case .event(let event): members.append(("event", .string(definition.events[event] ?? "#\(event)")))
            case .inert(let type): members.append(("listenerType", .number(Double(type))))
            }
        }
        Self.add("actions", listener.actions.map(listenerAction), to: &members)
        return .object(members)
    }

    private func listenerAction(_ action: ListenerActionDefinition) -> JSONValue {
        switch action {
        case .viewModelChange(let bindable):
            let target = definition.dataBinds.last { $0.target == .bindable(bindable) && $0.toSource }
            let destination = target.map { path($0.sourcePath) } ?? ""
            if definition.bindables.indices.contains(bindable), definition.bindables[bindable].typeKey == 503 {
                return .object([("fire", .string(destination))])
            }
            var members: [(String, JSONValue)] = [("set", .string(destination))]
            if let source = toTargetBind(bindable) {
                members.append(("otherProperty", .string(path(source.sourcePath))))
                if let converter = source.converter { members.append(("converter", converterReference(converter))) }
            } else if definition.bindables.indices.contains(bindable) {
                members.append(("value", storedValue(definition.bindables[bindable], at: target?.sourcePath)))
            }
            return .object(members)
        case .fireEvent(let event):
            return .object([("fireEvent", .string(definition.events[event] ?? "#\(event)"))])
        case .setInput(let input, let value):
            guard let value else { return .object([("input", .string(inputName(input)))]) }
            if definition.inputs.indices.contains(input), case .boolean = definition.inputs[input].kind {
                return .object([("input", .string(inputName(input)))] + (value != 0 ? [] : [("value", .bool(false))]))
            }
            return .object([("input", .string(inputName(input))), ("value", .number(Double(value)))])
        case .unsupported(let typeKey):
            return .object([("type", .string(RiveDefinitions.type(typeKey)?.name ?? String(typeKey)))])
        }
    }

    private func storedValue(_ bindable: BindableDefinition, at ids: [Int]?) -> JSONValue {
        switch bindable.value {
        case .float(let number)?: return .number(Double(number))
        case .color(let color)?: return .string(ColorText.format(color))
        case .bytes(let bytes)?: return .string(String(decoding: bytes, as: UTF8.self))
        case .uint(let number)?:
            if bindable.typeKey == 472 { return .bool(number != 0) }
            if let values = property(atPath: ids)?.enumName.flatMap({ schema.enumSchema(named: $0) })?.values,
                values.indices.contains(Int(number))
            {
                return .string(values[Int(number)])
            }
            return .number(Double(number))
        case nil:
            switch bindable.typeKey {
            case 472: return .bool(false)
            case 471: return .string("")
            case 475: return .string(ColorText.format(0xFF1D_1D1D))
            default: return .number(0)
            }
        }
    }

    private func fireAction(_ action: FireActionDefinition) -> JSONValue {
        var members: [(String, JSONValue)]
        switch action.action {
        case .event(let event): members = [("fireEvent", .string(definition.events[event] ?? "#\(event)"))]
        case .trigger(let ids): members = [("fire", .string(path(ids)))]
        case .listenerAction(let scheduled): members = listenerAction(scheduled).objectValue ?? []
        }
        if action.atEnd { members.append(("at", "end")) }
        return .object(members)
    }

    // MARK: Data binds and paths

    private func artboardBind(_ bind: DataBindDefinition) -> JSONValue {
        var members: [(String, JSONValue)] = [("property", .string(path(bind.sourcePath)))]
        if case .component(let id) = bind.target, definition.components.indices.contains(id) {
            members.append(("target", .string(componentName(id))))
        }
        members.append(("targetProperty", .string(RiveDefinitions.property(bind.propertyKey)?.name ?? String(bind.propertyKey))))
        if case .component(let id) = bind.target, definition.components.indices.contains(id),
            let stored = definition.components[id].properties[bind.propertyKey],
            let value = RiveGraph.jsonValue(
                of: RiveObject(typeKey: definition.components[id].typeKey, properties: [bind.propertyKey: stored])
            )
            .objectValue?.first(where: { $0.0 != "type" })?.1
        {
            members.append(("targetValue", value))
        }
        members.append(("direction", .string(bind.twoWay ? "twoWay" : bind.toSource ? "toSource" : "toTarget")))
        if bind.once { members.append(("once", true)) }
        if bind.sourceToTargetFirst { members.append(("sourceToTargetFirst", true)) }
        if let converter = bind.converter { members.append(("converter", converterReference(converter))) }
        return .object(members)
    }

    private func converterReference(_ index: Int) -> JSONValue {
        ConverterJSONWriter.reference(index, names: converterNames)
    }

    /// A component as `Type 'name'`, or `Type #id` when it has no name.
    private func componentName(_ id: Int) -> String {
        guard definition.components.indices.contains(id) else { return "#\(id)" }
        let component = definition.components[id]
        let type = RiveDefinitions.type(component.typeKey)?.name ?? String(component.typeKey)
        let name = component.string(4) ?? ""
        return name.isEmpty ? "\(type) #\(id)" : "\(type) '\(name)'"
    }

    private func componentProperty(_ id: Int, _ key: Int) -> String {
        "\(componentName(id)).\(RiveDefinitions.property(key)?.name ?? String(key))"
    }

    private func toTargetBind(_ bindable: Int) -> DataBindDefinition? {
        definition.dataBinds.last { $0.target == .bindable(bindable) && !$0.toSource }
    }

    private func path(toTarget bindable: Int) -> String {
        toTargetBind(bindable).map { path($0.sourcePath) } ?? ""
    }

    /// A source path as a property path: from the artboard's view model, or `@Name/…` from
    /// another view model (a global, or a nested artboard's context); `#n` where an id leads
    /// nowhere.
    private func path(_ ids: [Int]) -> String { schema.sourcePathText(ids, home: artboard.viewModelName) }

    /// The property a source path leads to, if it leads to one.
    private func property(atPath ids: [Int]?) -> PropertySchema? {
        guard let ids, let first = ids.first, schema.viewModels.indices.contains(first) else { return nil }
        var viewModel = schema.viewModels[first]
        var found: PropertySchema?
        for id in ids.dropFirst() {
            guard viewModel.properties.indices.contains(id) else { return nil }
            found = viewModel.properties[id]
            if let next = found?.viewModelName, let nested = schema.viewModels.first(where: { $0.name == next }) { viewModel = nested }
        }
        return found
    }
}
