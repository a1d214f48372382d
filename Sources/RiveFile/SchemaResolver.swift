import RiveSyncModel

/// Turns the indices of a `RawFile` into names and instance references (`RIV-FORMAT.md` §6).
///
/// Runs after the whole stream is read, because references may point forward. Out-of-range
/// indices resolve to "none" as the runtime does: a nil nested instance, asset or artboard, an
/// empty enum value, a dropped list item, no enum or view model on a property. A value whose
/// property index is out of range or whose type does not fit its property is dropped.
struct SchemaResolver {
    let raw: RawFile
    let bytes: ArraySlice<UInt8>
    /// Per view model: its file-level instances, then its artboard-scoped ones, as indices into
    /// `raw.instances` — the runtime's instance index space.
    private let instancesByViewModel: [[Int]]
    private let fileLevelCounts: [Int]

    init(raw: RawFile, bytes: ArraySlice<UInt8>) {
        self.raw = raw
        self.bytes = bytes
        var fileLevel = [[Int]](repeating: [], count: raw.viewModels.count)
        var scoped = fileLevel
        for (i, instance) in raw.instances.enumerated() where Int(instance.viewModelIndex) < raw.viewModels.count {
            if instance.isArtboardScoped {
                scoped[Int(instance.viewModelIndex)].append(i)
            } else {
                fileLevel[Int(instance.viewModelIndex)].append(i)
            }
        }
        fileLevelCounts = fileLevel.map(\.count)
        instancesByViewModel = zip(fileLevel, scoped).map { $0 + $1 }
    }

    func resolve() -> FileSchema {
        var viewModels = raw.viewModels.map { viewModel in
            ViewModelSchema(
                name: viewModel.name, isGlobal: viewModel.isGlobal,
                properties: viewModel.properties.map(propertySchema(of:)))
        }
        for (v, members) in instancesByViewModel.enumerated() {
            let instances = members.map { authoredInstance(raw.instances[$0], viewModel: v) }
            viewModels[v].instances = Array(instances[..<fileLevelCounts[v]])
            viewModels[v].artboardScopedInstances = Array(instances[fileLevelCounts[v]...])
        }
        return FileSchema(
            viewModels: viewModels, enums: raw.enums, artboards: raw.artboards.map(artboardSchema(of:)),
            assets: raw.assets, graph: raw.graph)
    }

    private func propertySchema(of property: RawProperty) -> PropertySchema {
        var schema = PropertySchema(name: property.name, type: property.type)
        if property.type == .enum {
            schema.enumName = element(raw.enums, property.enumIndex)?.name
        }
        if property.type == .viewModel {
            schema.viewModelName = element(raw.viewModels, property.viewModelIndex)?.name
        }
        return schema
    }

    private func artboardSchema(of artboard: RawArtboard) -> ArtboardSchema {
        ArtboardSchema(
            name: artboard.name, viewModelName: element(raw.viewModels, artboard.viewModelIndex)?.name,
            stateMachines: artboard.stateMachines,
            defaultStateMachine: element(artboard.stateMachines, artboard.defaultStateMachineIndex))
    }

    private func authoredInstance(_ instance: RawInstance, viewModel: Int) -> AuthoredInstance {
        let properties = raw.viewModels[viewModel].properties
        var authored = AuthoredInstance(name: instance.name)
        for value in instance.values {
            guard let property = element(properties, value.propertyIndex), value.kind.fits(property.type) else {
                continue
            }
            authored.values[property.name] = authoredValue(value, property)
        }
        return authored
    }

    private func authoredValue(_ value: RawValue, _ property: RawProperty) -> AuthoredValue {
        switch property.type {
        case .number:
            guard case .float(let number) = value.payload else { return .number(0) }
            return .number(number)
        case .string:
            guard case .bytes(let range) = value.payload else { return .string("") }
            return .string(String(decoding: bytes[range], as: UTF8.self))
        case .boolean:
            return .boolean(uint(value.payload, default: 0) != 0)
        case .color:
            guard case .color(let argb) = value.payload else { return .color(0xFF00_0000) }
            return .color(argb)
        case .enum:
            let values = element(raw.enums, property.enumIndex)?.values ?? []
            return .enumValue(element(values, uint(value.payload, default: 0)) ?? "")
        case .trigger:
            return .trigger(uint(value.payload, default: 0))
        case .symbolListIndex:
            return .symbolListIndex(uint(value.payload, default: 0))
        case .viewModel:
            return .viewModel(reference(viewModel: property.viewModelIndex, instance: uint(value.payload, default: 0)))
        case .list:
            return .list(value.listItems.compactMap { reference(viewModel: $0.viewModelIndex, instance: $0.instanceIndex) })
        case .assetImage, .assetFont, .assetBlob:
            return .asset(element(raw.assets, uint(value.payload, default: .max))?.name)
        case .artboard:
            return .artboard(element(raw.artboards, uint(value.payload, default: .max))?.name)
        }
    }

    /// An instance of a view model by the runtime's index; nil when either index is out of
    /// range or names an artboard-scoped instance (`InstanceReference` counts file-level
    /// instances only).
    private func reference(viewModel: UInt32, instance: UInt32) -> InstanceReference? {
        guard let target = element(raw.viewModels, viewModel), Int(instance) < fileLevelCounts[Int(viewModel)] else {
            return nil
        }
        return InstanceReference(viewModel: target.name, index: Int(instance))
    }

    private func uint(_ payload: FieldValue?, default none: UInt32) -> UInt32 {
        guard case .uint(let raw) = payload else { return none }
        return UInt32(truncatingIfNeeded: raw)
    }

    private func element<T>(_ array: [T], _ index: UInt32) -> T? {
        Int(index) < array.count ? array[Int(index)] : nil
    }
}
