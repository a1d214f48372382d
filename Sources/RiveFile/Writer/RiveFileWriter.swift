import RiveSyncModel

/// Writes `.riv` files (major version 7) for the subset `RiveFileReader` understands: a
/// `FileSchema`'s enums, view models with their properties and authored instances, artboards
/// with their view model and state machine names, and file assets by name; or a `RiveGraph`
/// (every object a `.riv` held) as it is. Pure: bytes out, no I/O; `RiveFileReader.read` of
/// the result gives the schema back.
public enum RiveFileWriter {
    /// The version the writer writes.
    public static let majorVersion: UInt64 = 7
    public static let minorVersion: UInt64 = 3
    /// Keys below this are core keys every runtime knows: real exports never list them in the
    /// table of contents, and neither does the writer.
    static let firstListedKey: UInt64 = 160
    /// A missing reference (an index nothing has).
    static let none = UInt64(UInt32.max)

    /// The file's bytes: header, table of contents, the schema's objects. A schema with a
    /// graph (`protocol/SCHEMA.md`, "The graph") has its artboards written from the graph, from
    /// its first `Artboard` on, with everything that follows them (components, events, state
    /// machines and their layers, states, transitions and listeners), instead of from
    /// `artboards`; every key is then listed in the table of contents.
    public static func write(_ schema: FileSchema) -> [UInt8] {
        let artboard = schema.graph.objects.firstIndex { $0.typeKey == Int(Keys.artboard) }
        guard let artboard else { return encode(objects(for: schema)) }
        var fileObjects = schema
        fileObjects.artboards = []
        return encode(objects(for: fileObjects) + schema.graph.objects[artboard...].map(object), listing: { _ in true })
    }

    /// Header (magic, version, file id 0), the table of contents of every key from
    /// `firstListedKey` on that the objects use, then the objects in order.
    public static func encode(_ objects: [RiveFileObject]) -> [UInt8] {
        encode(objects, listing: { $0 >= firstListedKey })
    }

    /// `encode`, listing the keys `listing` admits in the table of contents (a key left out
    /// must be one a reader knows the field type of).
    public static func encode(_ objects: [RiveFileObject], listing: (UInt64) -> Bool) -> [UInt8] {
        var listed: [(key: UInt64, code: UInt32)] = []
        var seen = Set<UInt64>()
        for object in objects {
            for property in object.properties where listing(property.key) && seen.insert(property.key).inserted {
                listed.append((property.key, property.value.tocCode))
            }
        }
        var writer = ByteWriter()
        writer.raw(Array("RIVE".utf8))
        writer.varUInt(majorVersion)
        writer.varUInt(minorVersion)
        writer.varUInt(0)
        for entry in listed { writer.varUInt(entry.key) }
        writer.varUInt(0)
        for start in stride(from: 0, to: listed.count, by: 4) {
            var word: UInt32 = 0
            for (i, entry) in listed[start..<min(start + 4, listed.count)].enumerated() { word |= entry.code << (2 * UInt32(i)) }
            writer.uint32(word)
        }
        for object in objects { object.encode(into: &writer) }
        return writer.bytes
    }

    /// The schema as objects, in the order real exports use: the backboard, assets, enums
    /// and their values, view models with properties and instances, artboards with their
    /// state machines.
    public static func objects(for schema: FileSchema) -> [RiveFileObject] {
        var objects = [RiveFileObject(Keys.backboard)]
        for asset in schema.assets {
            objects.append(RiveFileObject(Keys.assetType(asset.kind), [.init(Keys.assetName, .string(asset.name))]))
        }
        for item in schema.enums {
            objects.append(RiveFileObject(Keys.enumType, [.init(Keys.enumName, .string(item.name))]))
            for value in item.values { objects.append(RiveFileObject(Keys.enumValueType, [.init(Keys.enumValueKey, .string(value))])) }
        }
        for (v, viewModel) in schema.viewModels.enumerated() {
            var object = RiveFileObject(Keys.viewModel, [.init(Keys.viewModelComponentName, .string(viewModel.name))])
            if viewModel.isGlobal { object.set(Keys.viewModelFlags, .uint(2)) }
            objects.append(object)
            for property in viewModel.properties { objects.append(propertyObject(property, schema)) }
            for instance in viewModel.instances { objects += instanceObjects(instance, of: viewModel, index: v, parentId: nil, schema) }
        }
        for (a, artboard) in schema.artboards.enumerated() {
            var object = RiveFileObject(Keys.artboard, [.init(Keys.componentName, .string(artboard.name))])
            if let name = artboard.viewModelName {
                object.set(Keys.artboardViewModel, .uint(index(of: name, in: schema.viewModels.map(\.name))))
            }
            if let name = artboard.defaultStateMachine {
                object.set(Keys.artboardDefaultStateMachine, .uint(index(of: name, in: artboard.stateMachines)))
            }
            objects.append(object)
            if a == 0 {
                for (v, viewModel) in schema.viewModels.enumerated() {
                    for instance in viewModel.artboardScopedInstances {
                        objects += instanceObjects(instance, of: viewModel, index: v, parentId: 1, schema)
                    }
                }
            }
            for machine in artboard.stateMachines {
                objects.append(RiveFileObject(Keys.stateMachine, [.init(Keys.animationName, .string(machine))]))
            }
        }
        return objects
    }

    private static func propertyObject(_ property: PropertySchema, _ schema: FileSchema) -> RiveFileObject {
        var object = RiveFileObject(Keys.propertyType(property.type), [.init(Keys.viewModelComponentName, .string(property.name))])
        if let name = property.enumName { object.set(Keys.propertyEnum, .uint(index(of: name, in: schema.enums.map(\.name)))) }
        if property.type == .viewModel {
            object.set(
                Keys.propertyViewModel, .uint(property.viewModelName.map { index(of: $0, in: schema.viewModels.map(\.name)) } ?? none))
        }
        return object
    }

    private static func instanceObjects(
        _ instance: AuthoredInstance, of viewModel: ViewModelSchema, index: Int, parentId: UInt64?, _ schema: FileSchema
    ) -> [RiveFileObject] {
        var object = RiveFileObject(Keys.viewModelInstance, [.init(Keys.componentName, .string(instance.name))])
        object.set(Keys.instanceViewModel, .uint(UInt64(index)))
        if let parentId { object.set(Keys.parentId, .uint(parentId)) }
        var objects = [object]
        for (p, property) in viewModel.properties.enumerated() {
            guard let value = instance.values[property.name] else { continue }
            var valueObject = RiveFileObject(Keys.valueType(property.type), [.init(Keys.valueProperty, .uint(UInt64(p)))])
            if let key = Keys.valueKey(property.type), let stored = storedValue(value, property, schema) { valueObject.set(key, stored) }
            objects.append(valueObject)
            if case .list(let items) = value {
                for item in items {
                    let viewModelIndex = self.index(of: item.viewModel, in: schema.viewModels.map(\.name))
                    objects.append(
                        RiveFileObject(
                            Keys.listItem,
                            [.init(Keys.listItemViewModel, .uint(viewModelIndex)), .init(Keys.listItemInstance, .uint(UInt64(item.index)))])
                    )
                }
            }
        }
        return objects
    }

    private static func storedValue(_ value: AuthoredValue, _ property: PropertySchema, _ schema: FileSchema) -> RiveFileObject.Value? {
        switch value {
        case .number(let number): return .float(Float(number))
        case .string(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .color(let argb): return .color(argb)
        case .enumValue(let name):
            let values = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            return .uint(UInt64(values.firstIndex(of: name) ?? values.count))
        case .trigger(let count): return .uint(UInt64(count))
        case .symbolListIndex(let index): return .uint(UInt64(index))
        case .viewModel(let reference): return .uint(reference.map { UInt64($0.index) } ?? none)
        case .list: return nil
        case .asset(let name): return .uint(name.map { index(of: $0, in: schema.assets.map(\.name)) } ?? none)
        case .artboard(let name): return .uint(name.map { index(of: $0, in: schema.artboards.map(\.name)) } ?? none)
        }
    }

    private static func index(of name: String, in names: [String]) -> UInt64 {
        names.firstIndex(of: name).map { UInt64($0) } ?? none
    }
}
