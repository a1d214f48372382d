/// Where a view model comes from: by name, or the default view model of an artboard.
public enum ViewModelSource: Sendable, Hashable {
    case name(String)
    /// The artboard's default view model; nil names the default artboard.
    case artboardDefault(String?)
}

/// How to make a new instance, as in Rive: blank, the view model's default, by name, or (as
/// Rive's legacy API allows) by index.
public enum InstanceSource: Sendable, Hashable {
    case blank(from: ViewModelSource)
    case viewModelDefault(from: ViewModelSource)
    case name(String, from: ViewModelSource)
    case index(Int, from: ViewModelSource)
}

extension FileRuntime {
    /// Creates a live instance. Nested values and list items of an authored instance become
    /// new instances of their own (an authored instance referenced twice becomes one shared
    /// instance). A view model with no authored instances gives a blank one as its default.
    public mutating func createInstance(_ source: InstanceSource) throws(FileError) -> InstanceID {
        try checkInstanceRoom(for: 1)
        return try createUnchecked(source)
    }

    /// Throws `limitExceeded` unless `count` more top-level instances fit the file's limit.
    func checkInstanceRoom(for count: Int) throws(FileError) {
        guard store.instances.count + count <= limits.maxInstances else {
            throw .limitExceeded(limit: Self.instanceLimitName, value: limits.maxInstances)
        }
    }

    /// The daemon's name of `ModelLimits.maxInstances`, as errors report it.
    public static let instanceLimitName = "maxInstancesPerFile"

    /// `createInstance` without the limit check (done by the caller for several at once).
    mutating func createUnchecked(_ source: InstanceSource) throws(FileError) -> InstanceID {
        switch source {
        case .blank(let from):
            return makeBlank(try viewModel(from))
        case .viewModelDefault(let from):
            let viewModel = try viewModel(from)
            guard !viewModel.instances.isEmpty else { return makeBlank(viewModel) }
            var made: [InstanceReference: InstanceID] = [:]
            return makeAuthored(InstanceReference(viewModel: viewModel.name, index: 0), made: &made)
        case .name(let name, let from):
            let viewModel = try viewModel(from)
            guard let index = viewModel.instances.firstIndex(where: { $0.name == name }) else {
                throw .invalidViewModelInstance("'\(viewModel.name)' has no instance named '\(name)'")
            }
            var made: [InstanceReference: InstanceID] = [:]
            return makeAuthored(InstanceReference(viewModel: viewModel.name, index: index), made: &made)
        case .index(let index, let from):
            let viewModel = try viewModel(from)
            guard viewModel.instances.indices.contains(index) else {
                throw .invalidViewModelInstance("'\(viewModel.name)' has no instance at index \(index)")
            }
            var made: [InstanceReference: InstanceID] = [:]
            return makeAuthored(InstanceReference(viewModel: viewModel.name, index: index), made: &made)
        }
    }

    private func viewModel(_ source: ViewModelSource) throws(FileError) -> ViewModelSchema {
        switch source {
        case .name(let name):
            return try schema.viewModel(named: name)
        case .artboardDefault(let artboardName):
            let artboard = try schema.artboard(named: artboardName)
            guard let name = artboard.viewModelName else {
                throw .invalidViewModel("artboard '\(artboard.name)' has no default view model")
            }
            return try schema.viewModel(named: name)
        }
    }

    private func blankValues(of viewModel: ViewModelSchema) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for property in viewModel.properties where values[property.name] == nil {
            let enumValues = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            values[property.name] = .blank(for: property.type, enumValues: enumValues)
        }
        return values
    }

    private mutating func makeBlank(_ viewModel: ViewModelSchema) -> InstanceID {
        let id = allocateInstanceID()
        store.upsert(InstanceState(id: id, viewModel: viewModel.name, name: "", values: blankValues(of: viewModel)))
        return id
    }

    /// Creates the instance for an authored reference, reusing one already made in this call.
    private mutating func makeAuthored(_ reference: InstanceReference, made: inout [InstanceReference: InstanceID]) -> InstanceID {
        if let id = made[reference] { return id }
        guard let viewModel = schema.viewModels.first(where: { $0.name == reference.viewModel }) else {
            return makeBlank(ViewModelSchema(name: reference.viewModel))
        }
        guard viewModel.instances.indices.contains(reference.index) else { return makeBlank(viewModel) }
        let authored = viewModel.instances[reference.index]
        let id = allocateInstanceID()
        made[reference] = id
        var values = blankValues(of: viewModel)
        store.upsert(InstanceState(id: id, viewModel: viewModel.name, name: authored.name, values: values))
        for property in viewModel.properties {
            guard let stored = authored.values[property.name] else { continue }
            values[property.name] = liveValue(of: stored, property: property, made: &made) ?? values[property.name]
        }
        store.upsert(InstanceState(id: id, viewModel: viewModel.name, name: authored.name, values: values))
        return id
    }

    private mutating func liveValue(
        of stored: AuthoredValue, property: PropertySchema, made: inout [InstanceReference: InstanceID]
    ) -> PropertyValue? {
        switch stored {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .boolean(let b): return .boolean(b)
        case .color(let c): return .color(c)
        case .enumValue(let e): return .enumValue(e)
        case .trigger: return .trigger(0)
        case .viewModel(let reference):
            return .viewModel(reference.map { makeAuthored($0, made: &made) })
        case .list(let references):
            return .list(references.map { makeAuthored($0, made: &made) })
        case .asset(let name):
            guard let name, let asset = schema.assets.first(where: { $0.name == name }) else { return .asset(nil) }
            return .asset(.fileAsset(name, kind: asset.kind))
        case .artboard(let name): return .artboard(name)
        case .symbolListIndex(let index): return .symbolListIndex(index)
        }
    }
}
