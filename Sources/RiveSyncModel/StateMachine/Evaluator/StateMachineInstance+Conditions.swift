extension StateMachineInstance {
    /// Whether a transition condition holds now, in a layer.
    func evaluate(_ condition: ConditionDefinition, layer: Int, access: some ViewModelAccess) -> Bool {
        switch condition {
        case .trigger(let input):
            guard inputs.indices.contains(input) else { return false }
            return inputs[input].fired && !used.contains(.input(input, layer: layer))
        case .input(let input, let operation, let value):
            guard inputs.indices.contains(input), definition.inputs.indices.contains(input) else { return false }
            if case .boolean = definition.inputs[input].kind {
                return (inputs[input].number != 0) == (operation == .equal)
            }
            return compare(.number(inputs[input].number), .number(value), operation)
        case .viewModel(let left, let right, let operation):
            if case .bindable(let bindable) = left, right == .changed || (right == .trigger && isTrigger(bindable)) {
                guard let location = source(of: bindable, access: access) else { return false }
                return changed.contains(location) && !used.contains(.value(location, layer: layer))
            }
            guard let lhs = comparable(left, access: access), let rhs = comparable(right, access: access) else { return false }
            return compare(lhs, rhs, operation)
        case .unsupported:
            return false
        }
    }

    /// Marks the values a taken transition's conditions read as used in the layer, so a
    /// trigger or a "changed" value moves each layer once per frame.
    mutating func useInLayer(_ transition: TransitionDefinition, layer: Int, access: some ViewModelAccess) {
        for condition in transition.conditions {
            switch condition {
            case .trigger(let input): used.insert(.input(input, layer: layer))
            case .viewModel(.bindable(let bindable), _, _):
                if let location = source(of: bindable, access: access) { used.insert(.value(location, layer: layer)) }
            default: break
            }
        }
    }

    private func isTrigger(_ bindable: Int) -> Bool {
        definition.bindables.indices.contains(bindable) && definition.bindables[bindable].typeKey == 503
    }

    /// The view-model value a bindable reads (its to-target bind's source).
    func source(of bindable: Int, access: some ViewModelAccess) -> ValueLocation? {
        guard let bind = toTargetBind(of: bindable) else { return nil }
        return access.locate(bind.sourcePath)
    }

    func toTargetBind(of bindable: Int) -> DataBindDefinition? {
        bindIndex(of: bindable, toSource: false).map { definition.dataBinds[$0] }
    }

    /// The index of a bindable's last to-target (or to-source) bind among the state machine's.
    func bindIndex(of bindable: Int, toSource: Bool) -> Int? {
        definition.dataBinds.lastIndex { $0.target == .bindable(bindable) && $0.toSource == toSource }
    }

    /// A bindable's current value: its bound view-model value through its converter, or its
    /// stored value.
    func value(of bindable: Int, access: some ViewModelAccess) -> PropertyValue? {
        if let index = bindIndex(of: bindable, toSource: false), let location = access.locate(definition.dataBinds[index].sourcePath),
            let value = access.value(at: location)
        {
            return converted(value, slot: .stateMachine(index), towardSource: false, source: location, access: access)
        }
        guard definition.bindables.indices.contains(bindable) else { return nil }
        switch definition.bindables[bindable].value {
        case .float(let number): return .number(number)
        case .color(let color): return .color(color)
        case .bytes(let bytes): return .string(String(decoding: bytes, as: UTF8.self))
        case .uint(let number):
            return definition.bindables[bindable].typeKey == 472 ? .boolean(number != 0) : .symbolListIndex(UInt32(clamping: number))
        case nil:
            switch definition.bindables[bindable].typeKey {
            case 473: return .number(0)
            case 472: return .boolean(false)
            case 471: return .string("")
            case 475: return .color(0xFF1D_1D1D)
            default: return nil
            }
        }
    }

    /// A bindable's value as a condition compares it (enums by index).
    private func comparable(_ bindable: Int, access: some ViewModelAccess) -> PropertyValue? {
        if definition.bindables.indices.contains(bindable), definition.bindables[bindable].typeKey == 474 {
            if let bind = toTargetBind(of: bindable), let location = access.locate(bind.sourcePath) {
                return access.enumIndex(at: location).map { .symbolListIndex(UInt32(clamping: $0)) }
            }
        }
        return value(of: bindable, access: access)
    }

    private func comparable(_ comparator: ComparatorDefinition, access: some ViewModelAccess) -> PropertyValue? {
        switch comparator {
        case .bindable(let bindable): return comparable(bindable, access: access)
        case .number(let number): return .number(number)
        case .boolean(let value): return .boolean(value)
        case .string(let value): return .string(value)
        case .color(let value): return .color(value)
        case .enumIndex(let index): return .symbolListIndex(UInt32(clamping: index))
        case .component(let component, let key): return componentValue(BoundComponentProperty(component: component, key: key))
        case .trigger, .changed, .unsupported: return nil
        }
    }

    private func compare(_ lhs: PropertyValue, _ rhs: PropertyValue, _ operation: ConditionOperation) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            switch operation {
            case .equal: return a == b
            case .notEqual: return a != b
            case .lessThanOrEqual: return a <= b
            case .greaterThanOrEqual: return a >= b
            case .lessThan: return a < b
            case .greaterThan: return a > b
            }
        case (.symbolListIndex(let a), .symbolListIndex(let b)):
            return compare(.number(Float(a)), .number(Float(b)), operation)
        default:
            switch operation {
            case .equal: return lhs == rhs
            case .notEqual: return lhs != rhs
            default: return false
            }
        }
    }
}
