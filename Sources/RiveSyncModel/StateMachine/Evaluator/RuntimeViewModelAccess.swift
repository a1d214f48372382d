/// The `ViewModelAccess` a `FileRuntime` gives its state machines: the file's instance store
/// (moved in for the step and back out after it), the target's bindings, and every change
/// applied through `ChangeApplier` (as client writes are) and recorded as an effect of origin
/// `.stateMachine` for each target that sees it.
struct RuntimeViewModelAccess: ViewModelAccess {
    var store: InstanceStore
    let schema: FileSchema
    let bindings: [Binding]
    let rootSlots: [InstanceID: [RootSlot]]
    /// The effects of the changes made, by target.
    var effects: [String: [Effect]] = [:]
    var contexts: [InstanceID] = []

    func locate(_ path: [Int]) -> ValueLocation? {
        guard let first = path.first, schema.viewModels.indices.contains(first), path.count >= 2 else { return nil }
        var viewModel = schema.viewModels[first]
        let slot: BindingSlot = viewModel.isGlobal ? .global(viewModel.name) : .main
        let context = contexts.last { store[$0]?.viewModel == viewModel.name }
        guard var instance = context ?? bindings.first(where: { $0.slot == slot })?.instance,
            store[instance]?.viewModel == viewModel.name
        else { return nil }
        for (offset, id) in path.dropFirst().enumerated() {
            guard viewModel.properties.indices.contains(id) else { return nil }
            let property = viewModel.properties[id]
            if offset == path.count - 2 { return ValueLocation(instance: instance, property: property.name) }
            guard case .viewModel(let child?) = store[instance]?.values[property.name], let state = store[child],
                let next = schema.viewModels.first(where: { $0.name == state.viewModel })
            else { return nil }
            instance = child
            viewModel = next
        }
        return nil
    }

    func value(at location: ValueLocation) -> PropertyValue? {
        store[location.instance]?.values[location.property]
    }

    func enumValues(at location: ValueLocation) -> [String] {
        guard let state = store[location.instance],
            let property = schema.viewModels.first(where: { $0.name == state.viewModel })?.properties.first(where: {
                $0.name == location.property
            })
        else { return [] }
        return property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
    }

    mutating func write(_ value: PropertyValue, at location: ValueLocation) -> Bool {
        guard let current = self.value(at: location), current != value, value.fits(type(of: current)) else { return false }
        return apply(.set(instance: location.instance, property: location.property, value: value, introduced: []))
    }

    mutating func fire(at location: ValueLocation) {
        guard case .trigger = value(at: location) else { return }
        _ = apply(.fire(instance: location.instance, property: location.property))
    }

    /// Applies a change as a client's would be, recording it for every target that sees it.
    private mutating func apply(_ change: Change) -> Bool {
        let (instance, property) = change.location
        let seen = store.paths(to: instance, rootSlots: rootSlots)
        var unused = bindings
        do {
            try ChangeApplier.apply(change, to: &store, bindings: &unused)
        } catch {
            return false
        }
        for (target, paths) in seen {
            let full = paths.map { $0.isEmpty ? property : $0 + "/" + property }
            effects[target, default: []].append(Effect(paths: full, change: change, origin: .stateMachine))
        }
        return true
    }

    /// The data type a current value stores (enough for `fits`).
    private func type(of value: PropertyValue) -> DataType {
        switch value {
        case .number: return .number
        case .string: return .string
        case .boolean: return .boolean
        case .color: return .color
        case .enumValue: return .enum
        case .trigger: return .trigger
        case .viewModel: return .viewModel
        case .list: return .list
        case .asset: return .assetImage
        case .artboard: return .artboard
        case .symbolListIndex: return .symbolListIndex
        }
    }
}
