import RiveSyncJSON

/// Writes a file's data converters in the JSON schema format (`protocol/SCHEMA.md`, "Data
/// converters"), from its graph: every converter object in file order (the index space binds
/// use) in the graph's form, with a group's `items`, a formula's `tokens` and the
/// `interpolator` a range mapper or interpolator converter names inlined, and the `binds` that
/// feed a converter's or token's properties. What `ConverterJSONReader` reads back into the
/// same objects.
struct ConverterJSONWriter {
    private struct Record {
        var object: RiveObject
        var binds: [RiveObject] = []
        var items: [UInt64?] = []
        var tokens: [(object: RiveObject, binds: [RiveObject])] = []
    }

    /// The view models bind paths name.
    private let schema: FileSchema
    private var records: [Record] = []
    private var interpolators: [RiveObject] = []

    /// Walks the schema's graph as `DataConverters` does.
    init(schema: FileSchema) {
        self.schema = schema
        var sawBackboard = false
        var sawArtboard = false
        var latestGroup: Int?
        var latestFormula: Int?
        /// The converter (and token) a data bind that follows now targets.
        var bindable: (converter: Int, token: Int?)?
        for object in schema.graph.objects where RiveDefinitions.type(object.typeKey) != nil {
            let type = object.typeKey
            if RiveDefinitions.type(type, isA: 446) {
                if let (converter, token) = bindable {
                    if let token { records[converter].tokens[token].binds.append(object) } else { records[converter].binds.append(object) }
                }
                continue
            }
            bindable = nil
            if type == 23 { sawBackboard = true }
            if type == 1 { sawArtboard = true }
            guard sawBackboard else { continue }
            if RiveDefinitions.type(type, isA: 488) {
                records.append(Record(object: object))
                if type == 499 { latestGroup = records.count - 1 }
                if type == 536 { latestFormula = records.count - 1 }
                bindable = (records.count - 1, nil)
            } else if type == 498, let latestGroup {
                records[latestGroup].items.append(object.uint(679))
            } else if RiveDefinitions.type(type, isA: 537), let latestFormula {
                records[latestFormula].tokens.append((object, []))
                bindable = (latestFormula, records[latestFormula].tokens.count - 1)
            } else if RiveDefinitions.type(type, isA: 175), !sawArtboard {
                interpolators.append(object)
            }
        }
    }

    /// Every converter's name by index (`""` for one without).
    var names: [String] { records.map { $0.object.string(662) ?? "" } }

    /// A reference to converter `index`: its name where that is given and unique, else its index.
    static func reference(_ index: Int, names: [String]) -> JSONValue {
        guard names.indices.contains(index), !names[index].isEmpty, names.filter({ $0 == names[index] }).count == 1 else {
            return .number(Double(index))
        }
        return .string(names[index])
    }

    /// The converters, in file order.
    var json: [JSONValue] {
        let names = self.names
        return records.map { record in
            var object = record.object
            var interpolator: RiveObject?
            for key in [714, 758] {
                guard let id = object.uint(key) else { continue }
                if id < UInt64(interpolators.count) {
                    interpolator = interpolators[Int(id)]
                    object.properties[key] = nil
                }
            }
            var members = RiveGraph.jsonValue(of: object).objectValue ?? []
            if let interpolator { members.append(("interpolator", RiveGraph.jsonValue(of: interpolator))) }
            if !record.binds.isEmpty { members.append(("binds", .array(record.binds.map { bind($0, names: names) }))) }
            if object.typeKey == 499 {
                let items = record.items.map { item in
                    item.map { $0 < UInt64(Int.max) ? Self.reference(Int($0), names: names) : .number(Double($0)) } ?? .null
                }
                members.append(("items", .array(items)))
            }
            if object.typeKey == 536 {
                let tokens = record.tokens.map { token -> JSONValue in
                    var members = RiveGraph.jsonValue(of: token.object).objectValue ?? []
                    if !token.binds.isEmpty { members.append(("binds", .array(token.binds.map { bind($0, names: names) }))) }
                    return .object(members)
                }
                members.append(("tokens", .array(tokens)))
            }
            return .object(members)
        }
    }

    /// A converter's (or token's) bind: its source as `@Name/…`, the bound property by name,
    /// direction, flags and converter.
    private func bind(_ object: RiveObject, names: [String]) -> JSONValue {
        let key = Int(clamping: object.uint(586) ?? 0)
        var members: [(String, JSONValue)] = [
            ("property", .string(path(StateMachineGraphReader.ids(object.bytes(588))))),
            ("targetProperty", .string(RiveDefinitions.property(key)?.name ?? String(key))),
        ]
        let flags = object.uint(587) ?? 0
        if flags & 3 != 0 { members.append(("direction", .string(flags & 2 != 0 ? "twoWay" : "toSource"))) }
        if flags & 4 != 0 { members.append(("once", true)) }
        if flags & 8 != 0 { members.append(("sourceToTargetFirst", true)) }
        if let converter = object.uint(660), converter < UInt64(UInt32.max) {
            members.append(("converter", Self.reference(Int(converter), names: names)))
        }
        return .object(members)
    }

    /// A source path from its view model: `@Name/property/…` (`#n` where an id leads nowhere).
    private func path(_ ids: [Int]) -> String { schema.sourcePathText(ids) }
}
