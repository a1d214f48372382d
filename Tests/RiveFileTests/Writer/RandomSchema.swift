import RiveSyncModel

/// Random `FileSchema`s that a `.riv` can hold exactly: unique names where the format resolves
/// by position, references only to file-level instances, finite numbers, valid UTF-8.
struct RandomSchema {
    var generator: SplitMix64

    mutating func make() -> FileSchema {
        var schema = FileSchema()
        let kinds: [FileAssetSchema.Kind] = [.image, .font, .blob, .audio, .script, .unknown]
        schema.assets = names("asset", count(4)).map { FileAssetSchema(name: $0, kind: kinds.randomElement(using: &generator)!) }
        schema.enums = names("enum", count(3)).map { name in
            EnumSchema(name: name, values: names("v", 1 + count(4)).map { $0 + text() })
        }
        let viewModelNames = names("vm", 1 + count(5))
        schema.viewModels = viewModelNames.map { name in
            ViewModelSchema(
                name: name, isGlobal: int(4) == 0,
                properties: names("p", count(DataType.allCases.count + 2)).map { property(named: $0, viewModels: viewModelNames, schema) })
        }
        for v in schema.viewModels.indices {
            schema.viewModels[v].instances = (0..<count(4)).map { _ in AuthoredInstance(name: text()) }
        }
        schema.artboards = names("ab", count(4)).map { name in
            let machines = names("sm", count(3))
            let viewModel = int(3) == 0 ? nil : viewModelNames.randomElement(using: &generator)
            return ArtboardSchema(
                name: name, viewModelName: viewModel, stateMachines: machines,
                defaultStateMachine: int(3) == 0 ? nil : machines.randomElement(using: &generator))
        }
        let shapes = schema
        for v in schema.viewModels.indices {
            for i in schema.viewModels[v].instances.indices {
                schema.viewModels[v].instances[i].values = values(for: shapes.viewModels[v], in: shapes)
            }
            if !schema.artboards.isEmpty {
                schema.viewModels[v].artboardScopedInstances = (0..<count(2)).map { _ in
                    AuthoredInstance(name: text(), values: values(for: shapes.viewModels[v], in: shapes))
                }
            }
        }
        return schema
    }

    private mutating func property(named name: String, viewModels: [String], _ schema: FileSchema) -> PropertySchema {
        let type = DataType.allCases.randomElement(using: &generator)!
        var property = PropertySchema(name: name, type: type)
        if type == .enum, int(5) != 0 { property.enumName = schema.enums.randomElement(using: &generator)?.name }
        if type == .viewModel { property.viewModelName = int(10) == 0 ? nil : viewModels.randomElement(using: &generator) }
        return property
    }

    private mutating func values(for viewModel: ViewModelSchema, in schema: FileSchema) -> [String: AuthoredValue] {
        var values: [String: AuthoredValue] = [:]
        for property in viewModel.properties where int(4) != 0 {
            values[property.name] = value(for: property, in: schema)
        }
        return values
    }

    private mutating func value(for property: PropertySchema, in schema: FileSchema) -> AuthoredValue {
        switch property.type {
        case .number:
            return .number([0, -1, 250, 0.5, Float.greatestFiniteMagnitude, Float(int(1000)) / 7].randomElement(using: &generator)!)
        case .string: return .string(text())
        case .boolean: return .boolean(int(2) == 0)
        case .color: return .color(UInt32.random(in: .min ... .max, using: &generator))
        case .enum:
            let values = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            return .enumValue(int(5) == 0 ? "" : values.randomElement(using: &generator) ?? "")
        case .trigger: return .trigger(UInt32(int(3)))
        case .symbolListIndex: return .symbolListIndex(int(2) == 0 ? 0 : UInt32.random(in: .min ... .max, using: &generator))
        case .viewModel:
            return .viewModel(property.viewModelName.flatMap { reference(to: $0, in: schema) })
        case .list:
            return .list(
                (0..<count(4)).compactMap { _ in
                    schema.viewModels.randomElement(using: &generator).flatMap { reference(to: $0.name, in: schema) }
                })
        case .assetImage, .assetFont, .assetBlob:
            return .asset(int(4) == 0 ? nil : schema.assets.randomElement(using: &generator)?.name)
        case .artboard:
            return .artboard(int(4) == 0 ? nil : schema.artboards.randomElement(using: &generator)?.name)
        }
    }

    private mutating func reference(to viewModel: String, in schema: FileSchema) -> InstanceReference? {
        let count = schema.viewModels.first { $0.name == viewModel }?.instances.count ?? 0
        guard count > 0, int(5) != 0 else { return nil }
        return InstanceReference(viewModel: viewModel, index: int(count))
    }

    /// `count` distinct names: a prefix, a number and sometimes non-ASCII text.
    private mutating func names(_ prefix: String, _ count: Int) -> [String] {
        (0..<count).map { "\(prefix)\($0)" + (int(3) == 0 ? text() : "") }
    }

    /// Short text, sometimes empty, sometimes multi-byte.
    private mutating func text() -> String {
        ["", "a", "Instance", "héllo wörld", "日本語", "🎛️ knob", "tab\there", String(repeating: "x", count: 300)]
            .randomElement(using: &generator)!
    }

    private mutating func count(_ upper: Int) -> Int { int(upper + 1) }

    private mutating func int(_ upper: Int) -> Int { Int.random(in: 0..<upper, using: &generator) }
}
