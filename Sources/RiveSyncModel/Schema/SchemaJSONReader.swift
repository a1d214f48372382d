import RiveSyncJSON

/// Reads and validates the JSON schema format. Every error names where it is, e.g.
/// `viewModels[1].instances[0].values.mood: expected a number`.
struct SchemaJSONReader {
    private var schema = FileSchema()
    /// The state machines artboards describe (objects in `stateMachines`), read into the graph last.
    private var described: [StateMachineJSONReader.Described] = []

    mutating func read(_ json: JSONValue) throws(FileError) -> FileSchema {
        guard json.objectValue != nil else { throw fail("$", "expected an object") }
        if let version = json["rivesyncSchema"], version.intValue != FileSchema.jsonFormatVersion {
            throw fail("rivesyncSchema", "unsupported version (this build reads \(FileSchema.jsonFormatVersion))")
        }
        schema.enums = try array(json["enums"], "enums", optional: true).enumerated().map { (i, item) throws(FileError) in
            try readEnum(item, "enums[\(i)]")
        }
        schema.assets = try array(json["assets"], "assets", optional: true).enumerated().map { (i, item) throws(FileError) in
            let kindText = try string(item["kind"], "assets[\(i)].kind")
            guard let kind = FileAssetSchema.Kind(rawValue: kindText) else {
                throw fail("assets[\(i)].kind", "unknown asset kind '\(kindText)'")
            }
            return FileAssetSchema(name: try string(item["name"], "assets[\(i)].name"), kind: kind)
        }
        let viewModelItems = try array(json["viewModels"], "viewModels", optional: false)
        for (i, item) in viewModelItems.enumerated() {
            schema.viewModels.append(try readViewModelShape(item, "viewModels[\(i)]"))
        }
        try checkUnique(schema.viewModels.map(\.name), "viewModels", what: "view model")
        try checkUnique(schema.enums.map(\.name), "enums", what: "enum")
        for (i, viewModel) in schema.viewModels.enumerated() {
            try checkReferences(of: viewModel, "viewModels[\(i)]")
        }
        for (i, item) in try array(json["artboards"], "artboards", optional: true).enumerated() {
            schema.artboards.append(try readArtboard(item, "artboards[\(i)]"))
        }
        try checkUnique(schema.artboards.map(\.name), "artboards", what: "artboard")
        // Names first, so that values may refer to instances of any view model.
        for (i, item) in viewModelItems.enumerated() {
            schema.viewModels[i].instances = try array(item["instances"], "viewModels[\(i)].instances", optional: true)
                .enumerated().map { (k, instance) throws(FileError) in
                    AuthoredInstance(name: try string(instance["name"], "viewModels[\(i)].instances[\(k)].name"))
                }
        }
        for (i, item) in viewModelItems.enumerated() {
            let here = "viewModels[\(i)]"
            schema.viewModels[i].instances = try readInstances(item["instances"], "\(here).instances", viewModel: schema.viewModels[i])
            schema.viewModels[i].artboardScopedInstances = try readInstances(
                item["artboardScopedInstances"], "\(here).artboardScopedInstances", viewModel: schema.viewModels[i])
        }
        if let graph = json["graph"], !graph.isNull { schema.graph = try RiveGraph(json: graph) }
        do throws(StateMachineJSONError) {
            let describedGraph = try StateMachineJSONReader(schema: schema).graph(described, converters: json["converters"])
            if !describedGraph.isEmpty {
                guard schema.graph.isEmpty else { throw StateMachineJSONError.graphGivenTwice }
                schema.graph = describedGraph
            }
        } catch {
            throw .invalidData(error.description)
        }
        return schema
    }

    // MARK: Shapes

    private func readEnum(_ item: JSONValue, _ here: String) throws(FileError) -> EnumSchema {
        let values = try array(item["values"], "\(here).values", optional: false).enumerated().map {
            (j, value) throws(FileError) in try string(value, "\(here).values[\(j)]")
        }
        guard !values.isEmpty else { throw fail("\(here).values", "an enum needs at least one value") }
        try checkUnique(values, "\(here).values", what: "enum value")
        return EnumSchema(name: try string(item["name"], "\(here).name"), values: values)
    }

    private func readViewModelShape(_ item: JSONValue, _ here: String) throws(FileError) -> ViewModelSchema {
        let name = try string(item["name"], "\(here).name")
        let isGlobal = try bool(item["global"], "\(here).global") ?? false
        let properties = try array(item["properties"], "\(here).properties", optional: true).enumerated().map {
            (j, property) throws(FileError) in try readProperty(property, "\(here).properties[\(j)]")
        }
        try checkUnique(properties.map(\.name), "\(here).properties", what: "property")
        return ViewModelSchema(name: name, isGlobal: isGlobal, properties: properties)
    }

    private func readProperty(_ item: JSONValue, _ here: String) throws(FileError) -> PropertySchema {
        let name = try string(item["name"], "\(here).name")
        // A `/` is allowed, as in Rive: paths escape it (`PropertyPath.escape`).
        guard !name.isEmpty else {
            throw fail("\(here).name", "a property name must be non-empty")
        }
        let typeText = try string(item["type"], "\(here).type")
        guard let type = DataType(rawValue: typeText) else {
            throw fail("\(here).type", "unknown type '\(typeText)' (one of \(DataType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var property = PropertySchema(name: name, type: type)
        if type == .enum { property.enumName = try string(item["enum"], "\(here).enum") }
        if type == .viewModel { property.viewModelName = try string(item["viewModel"], "\(here).viewModel") }
        return property
    }

    private func checkReferences(of viewModel: ViewModelSchema, _ here: String) throws(FileError) {
        for (j, property) in viewModel.properties.enumerated() {
            if let enumName = property.enumName, schema.enumSchema(named: enumName) == nil {
                throw fail("\(here).properties[\(j)].enum", "no enum named '\(enumName)'")
            }
            if let target = property.viewModelName, !schema.viewModels.contains(where: { $0.name == target }) {
                throw fail("\(here).properties[\(j)].viewModel", "no view model named '\(target)'")
            }
        }
    }

    /// An artboard; its `stateMachines` are names, or state machines described in full
    /// (`{"name": …, "layers": …}`, kept for the graph).
    private mutating func readArtboard(_ item: JSONValue, _ here: String) throws(FileError) -> ArtboardSchema {
        let name = try string(item["name"], "\(here).name")
        let viewModel = try optionalString(item["viewModel"], "\(here).viewModel")
        if let viewModel, !schema.viewModels.contains(where: { $0.name == viewModel }) {
            throw fail("\(here).viewModel", "no view model named '\(viewModel)'")
        }
        var machines: [String] = []
        var described = StateMachineJSONReader.Described(artboard: schema.artboards.count, machines: [])
        for (j, value) in try array(item["stateMachines"], "\(here).stateMachines", optional: true).enumerated() {
            let at = "\(here).stateMachines[\(j)]"
            if value.objectValue != nil {
                machines.append(try string(value["name"], "\(at).name"))
                described.machines.append((value, at))
            } else {
                machines.append(try string(value, at))
            }
        }
        if !described.machines.isEmpty { self.described.append(described) }
        try checkUnique(machines, "\(here).stateMachines", what: "state machine")
        let defaultMachine = try optionalString(item["defaultStateMachine"], "\(here).defaultStateMachine")
        if let defaultMachine, !machines.contains(defaultMachine) {
            throw fail("\(here).defaultStateMachine", "'\(defaultMachine)' is not one of the artboard's state machines")
        }
        return ArtboardSchema(name: name, viewModelName: viewModel, stateMachines: machines, defaultStateMachine: defaultMachine)
    }

    // MARK: Instances and values

    private func readInstances(_ json: JSONValue?, _ here: String, viewModel: ViewModelSchema) throws(FileError) -> [AuthoredInstance] {
        try array(json, here, optional: true).enumerated().map { (k, item) throws(FileError) in
            let at = "\(here)[\(k)]"
            var instance = AuthoredInstance(name: try string(item["name"], "\(at).name"))
            guard let members = (item["values"] ?? .object([])).objectValue else {
                throw fail("\(at).values", "expected an object")
            }
            for (key, value) in members {
                guard let property = viewModel.property(named: key) else {
                    throw fail("\(at).values.\(key)", "view model '\(viewModel.name)' has no property '\(key)'")
                }
                instance.values[key] = try readValue(value, property, "\(at).values.\(key)")
            }
            return instance
        }
    }

    private func readValue(_ json: JSONValue, _ property: PropertySchema, _ here: String) throws(FileError) -> AuthoredValue {
        switch property.type {
        case .number:
            guard let n = json.numberValue, Float(n).isFinite else { throw fail(here, "expected a number") }
            return .number(Float(n))
        case .string:
            return .string(try string(json, here))
        case .boolean:
            guard let b = json.boolValue else { throw fail(here, "expected true or false") }
            return .boolean(b)
        case .color:
            if let text = json.stringValue, let argb = ColorText.parse(text) { return .color(argb) }
            if let n = json.intValue, let argb = UInt32(exactly: n) { return .color(argb) }
            throw fail(here, "expected a color \"#RRGGBB\" or \"#AARRGGBB\"")
        case .enum:
            let text = try string(json, here)
            let allowed = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            guard allowed.contains(text) else {
                throw fail(here, "'\(text)' is not a value of enum '\(property.enumName ?? "")' (\(allowed.joined(separator: ", ")))")
            }
            return .enumValue(text)
        case .trigger, .symbolListIndex:
            guard let n = json.intValue, let count = UInt32(exactly: n) else { throw fail(here, "expected a non-negative integer") }
            return property.type == .trigger ? .trigger(count) : .symbolListIndex(count)
        case .viewModel:
            if json.isNull { return .viewModel(nil) }
            return .viewModel(try readReference(json, defaultViewModel: property.viewModelName, here))
        case .list:
            let items = try array(json, here, optional: false)
            return .list(
                try items.enumerated().map { (i, item) throws(FileError) in
                    try readReference(item, defaultViewModel: nil, "\(here)[\(i)]")
                })
        case .assetImage, .assetFont, .assetBlob:
            let name = try optionalString(json, here)
            if let name, !schema.assets.contains(where: { $0.name == name }) {
                throw fail(here, "no asset named '\(name)'")
            }
            return .asset(name)
        case .artboard:
            let name = try optionalString(json, here)
            if let name, !schema.artboards.contains(where: { $0.name == name }) {
                throw fail(here, "no artboard named '\(name)'")
            }
            return .artboard(name)
        }
    }

    /// `"Name"` / `2` (for a nested property, whose view model is known) or
    /// `{"viewModel": "Child", "instance": "Name"}` / `{"viewModel": "Child", "index": 2}`.
    private func readReference(_ json: JSONValue, defaultViewModel: String?, _ here: String) throws(FileError) -> InstanceReference {
        var viewModelName = defaultViewModel
        var selector = json
        if json.objectValue != nil {
            viewModelName = try string(json["viewModel"], "\(here).viewModel")
            if let index = json["index"] {
                selector = index
            } else {
                selector = json["instance"] ?? .null
            }
        }
        guard let viewModelName else { throw fail(here, "expected {\"viewModel\": …, \"instance\": …}") }
        if let expected = defaultViewModel, expected != viewModelName {
            throw fail(here, "expected an instance of '\(expected)', got '\(viewModelName)'")
        }
        guard let viewModel = schema.viewModels.first(where: { $0.name == viewModelName }) else {
            throw fail(here, "no view model named '\(viewModelName)'")
        }
        if let index = selector.intValue {
            guard viewModel.instances.indices.contains(index) else {
                throw fail(here, "'\(viewModelName)' has no instance at index \(index)")
            }
            return InstanceReference(viewModel: viewModelName, index: index)
        }
        guard let name = selector.stringValue else { throw fail(here, "expected an instance name or index") }
        guard let index = viewModel.instances.firstIndex(where: { $0.name == name }) else {
            throw fail(here, "'\(viewModelName)' has no instance named '\(name)'")
        }
        return InstanceReference(viewModel: viewModelName, index: index)
    }

    // MARK: Primitives

    private func fail(_ here: String, _ reason: String) -> FileError { .invalidData("\(here): \(reason)") }

    private func array(_ json: JSONValue?, _ here: String, optional: Bool) throws(FileError) -> [JSONValue] {
        guard let json, !json.isNull else {
            if optional { return [] }
            throw fail(here, "missing")
        }
        guard let items = json.arrayValue else { throw fail(here, "expected an array") }
        return items
    }

    private func string(_ json: JSONValue?, _ here: String) throws(FileError) -> String {
        guard let text = json?.stringValue else { throw fail(here, json == nil ? "missing" : "expected a string") }
        return text
    }

    private func optionalString(_ json: JSONValue?, _ here: String) throws(FileError) -> String? {
        guard let json, !json.isNull else { return nil }
        return try string(json, here)
    }

    private func bool(_ json: JSONValue?, _ here: String) throws(FileError) -> Bool? {
        guard let json, !json.isNull else { return nil }
        guard let b = json.boolValue else { throw fail(here, "expected true or false") }
        return b
    }

    private func checkUnique(_ names: [String], _ here: String, what: String) throws(FileError) {
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw fail(here, "duplicate \(what) name '\(name)'")
        }
    }
}
