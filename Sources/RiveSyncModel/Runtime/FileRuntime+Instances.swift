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

/// What a new blank instance's nested view-model properties hold.
public enum NestedBlanks: Sendable, Hashable {
    /// A new blank instance of the referenced view model, made the same way (Rive's
    /// `createViewModelInstance`); a property whose view model is already being made further
    /// up holds null, so a view model that refers to itself ends.
    case blankInstances
    /// Null, as RiveSync made blank instances before journal format 5; kept so that older
    /// journals and cluster entries replay exactly as they ran.
    case null
}

extension FileRuntime {
    /// Creates a live instance. Nested values and list items of an authored instance become
    /// new instances of their own (an authored instance referenced twice becomes one shared
    /// instance). A view model with no authored instances gives a blank one as its default. A
    /// blank instance's nested view-model properties hold what `nested` says.
    public mutating func createInstance(_ source: InstanceSource, nested: NestedBlanks = .blankInstances) throws(FileError) -> InstanceID {
        try checkInstanceRoom(for: try instanceCount(source, nested: nested))
        return try createUnchecked(source, nested: nested)
    }

    /// How many instances `createUnchecked(source, nested:)` makes at the top of the tree it
    /// builds: the blank instances a blank source makes, else 1 (an authored instance's nested
    /// ones are not counted, as before).
    func instanceCount(_ source: InstanceSource, nested: NestedBlanks) throws(FileError) -> Int {
        switch source {
        case .blank(let from): return blankCount(try viewModel(from), nested: nested, making: [])
        case .viewModelDefault(let from):
            let viewModel = try viewModel(from)
            return viewModel.instances.isEmpty ? blankCount(viewModel, nested: nested, making: []) : 1
        case .name, .index: return 1
        }
    }

    private func blankCount(_ viewModel: ViewModelSchema, nested: NestedBlanks, making: Set<String>) -> Int {
        guard nested == .blankInstances else { return 1 }
        let making = making.union([viewModel.name])
        return viewModel.properties.reduce(1) { count, property in
            guard let referenced = nestedBlankViewModel(of: property, making: making) else { return count }
            return count + blankCount(referenced, nested: nested, making: making)
        }
    }

    /// The view model whose blank instance a blank's `property` holds, or nil (not a
    /// view-model property, an unknown view model, or one already being made).
    private func nestedBlankViewModel(of property: PropertySchema, making: Set<String>) -> ViewModelSchema? {
        guard property.type == .viewModel, let name = property.viewModelName, !making.contains(name) else { return nil }
        return schema.viewModels.first { $0.name == name }
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
    mutating func createUnchecked(_ source: InstanceSource, nested: NestedBlanks) throws(FileError) -> InstanceID {
        switch source {
        case .blank(let from):
            return makeBlank(try viewModel(from), nested: nested)
        case .viewModelDefault(let from):
            let viewModel = try viewModel(from)
            guard !viewModel.instances.isEmpty else { return makeBlank(viewModel, nested: nested) }
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

    /// Makes a blank instance (and, for `.blankInstances`, its nested blank instances, each
    /// after its parent, in property order). `making`: the view models being made further up.
    private mutating func makeBlank(_ viewModel: ViewModelSchema, nested: NestedBlanks, making: Set<String> = []) -> InstanceID {
        let id = allocateInstanceID()
        var values = blankValues(of: viewModel)
        store.upsert(InstanceState(id: id, viewModel: viewModel.name, name: "", values: values))
        guard nested == .blankInstances else { return id }
        let making = making.union([viewModel.name])
        for property in viewModel.properties {
            guard let referenced = nestedBlankViewModel(of: property, making: making) else { continue }
            values[property.name] = .viewModel(makeBlank(referenced, nested: nested, making: making))
        }
        store.upsert(InstanceState(id: id, viewModel: viewModel.name, name: "", values: values))
        return id
    }

    /// Creates the instance for an authored reference, reusing one already made in this call.
    private mutating func makeAuthored(_ reference: InstanceReference, made: inout [InstanceReference: InstanceID]) -> InstanceID {
        if let id = made[reference] { return id }
        guard let viewModel = schema.viewModels.first(where: { $0.name == reference.viewModel }) else {
            return makeBlank(ViewModelSchema(name: reference.viewModel), nested: .null)
        }
        guard viewModel.instances.indices.contains(reference.index) else { return makeBlank(viewModel, nested: .null) }
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
