import RiveSyncJSON

/// The RiveSync JSON schema format (see `protocol/SCHEMA.md`): the same shape `rivesync
/// inspect` prints and listings use. Loading validates every name and value.
extension FileSchema {
    /// The format's current version, written as `"rivesyncSchema": 1`.
    public static let jsonFormatVersion = 1

    /// Loads a schema from JSON text.
    public init(jsonText: String) throws(FileError) {
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 64).parse(jsonText)
        } catch {
            throw .invalidFile("not JSON: \(error)")
        }
        try self.init(json: value)
    }

    /// Loads a schema from a parsed JSON document.
    public init(json: JSONValue) throws(FileError) {
        var reader = SchemaJSONReader()
        self = try reader.read(json)
    }

    /// The whole schema as JSON, members in a fixed order, with the graph (what a journal
    /// keeps: reading it back gives this schema).
    public var jsonValue: JSONValue { jsonValue(authoredValues: true, graph: true) }

    /// The schema as JSON; without `authoredValues`, instances carry only their names; with
    /// `graph`, a `.riv` file's objects follow (`protocol/SCHEMA.md`, "The graph").
    public func jsonValue(authoredValues: Bool, graph includesGraph: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [("rivesyncSchema", .number(Double(Self.jsonFormatVersion)))]
        members.append(("enums", .array(enums.map { ["name": .string($0.name), "values": .array($0.values.map { .string($0) })] })))
        members.append(("viewModels", .array(viewModels.map { jsonValue(of: $0, authoredValues: authoredValues) })))
        members.append(("artboards", .array(artboards.map(Self.jsonValue(of:)))))
        members.append(("assets", .array(assets.map { ["name": .string($0.name), "kind": .string($0.kind.rawValue)] })))
        if includesGraph && !graph.isEmpty { members.append(("graph", graph.jsonValue)) }
        return .object(members)
    }

    /// One view model as JSON; without `authoredValues`, its instances carry only their names.
    public func jsonValue(of viewModel: ViewModelSchema, authoredValues: Bool = true) -> JSONValue {
        func instance(_ instance: AuthoredInstance) -> JSONValue {
            authoredValues ? jsonValue(of: instance, in: viewModel) : ["name": .string(instance.name)]
        }
        var members: [(String, JSONValue)] = [
            ("name", .string(viewModel.name)), ("global", .bool(viewModel.isGlobal)),
            ("properties", .array(viewModel.properties.map(Self.jsonValue(of:)))),
            ("instances", .array(viewModel.instances.map(instance))),
        ]
        if !viewModel.artboardScopedInstances.isEmpty {
            members.append(("artboardScopedInstances", .array(viewModel.artboardScopedInstances.map(instance))))
        }
        return .object(members)
    }

    /// One property descriptor as JSON.
    public static func jsonValue(of property: PropertySchema) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(property.name)), ("type", .string(property.type.rawValue))]
        if let enumName = property.enumName { members.append(("enum", .string(enumName))) }
        if let viewModelName = property.viewModelName { members.append(("viewModel", .string(viewModelName))) }
        return .object(members)
    }

    /// One artboard as JSON.
    public static func jsonValue(of artboard: ArtboardSchema) -> JSONValue {
        .object([
            ("name", .string(artboard.name)),
            ("viewModel", artboard.viewModelName.map(JSONValue.string) ?? .null),
            ("stateMachines", .array(artboard.stateMachines.map(JSONValue.string))),
            ("defaultStateMachine", artboard.defaultStateMachine.map(JSONValue.string) ?? .null),
        ])
    }

    private func jsonValue(of instance: AuthoredInstance, in viewModel: ViewModelSchema) -> JSONValue {
        let values: [(String, JSONValue)] = viewModel.properties.compactMap { property in
            instance.values[property.name].map { (property.name, jsonValue(of: $0)) }
        }
        return .object([("name", .string(instance.name)), ("values", .object(values))])
    }

    /// An authored value as JSON (see `protocol/SCHEMA.md` for the encoding per type).
    public func jsonValue(of value: AuthoredValue) -> JSONValue {
        switch value {
        case .number(let n): return .number(Double(n))
        case .string(let s): return .string(s)
        case .boolean(let b): return .bool(b)
        case .color(let c): return .string(ColorText.format(c))
        case .enumValue(let e): return .string(e)
        case .trigger(let count): return .number(Double(count))
        case .viewModel(let reference): return reference.map(jsonValue(of:)) ?? .null
        case .list(let items): return .array(items.map(jsonValue(of:)))
        case .asset(let name), .artboard(let name): return name.map(JSONValue.string) ?? .null
        case .symbolListIndex(let index): return .number(Double(index))
        }
    }

    private func jsonValue(of reference: InstanceReference) -> JSONValue {
        let name = viewModels.first { $0.name == reference.viewModel }.flatMap {
            $0.instances.indices.contains(reference.index) ? $0.instances[reference.index].name : nil
        }
        return .object([
            ("viewModel", .string(reference.viewModel)), ("instance", name.map(JSONValue.string) ?? .null),
            ("index", .number(Double(reference.index))),
        ])
    }
}
