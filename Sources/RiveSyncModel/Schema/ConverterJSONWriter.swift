import RiveSyncJSON

/// Writes a file's data converters in the JSON schema format (`protocol/SCHEMA.md`, "Data
/// converters"), from its graph: every converter object in file order (the index space binds
/// use) in the graph's form, with a group's `items`, a formula's `tokens` and the
/// `interpolator` a range mapper or interpolator converter names inlined. What
/// `ConverterJSONReader` reads back into the same objects.
struct ConverterJSONWriter {
    private struct Record {
        var object: RiveObject
        var items: [UInt64?] = []
        var tokens: [RiveObject] = []
    }

    private var records: [Record] = []
    private var interpolators: [RiveObject] = []

    /// Walks the graph as `DataConverters` does.
    init(graph: RiveGraph) {
        var sawBackboard = false
        var sawArtboard = false
        var latestGroup: Int?
        var latestFormula: Int?
        for object in graph.objects where RiveDefinitions.type(object.typeKey) != nil {
            let type = object.typeKey
            if type == 23 { sawBackboard = true }
            if type == 1 { sawArtboard = true }
            guard sawBackboard else { continue }
            if RiveDefinitions.type(type, isA: 488) {
                records.append(Record(object: object))
                if type == 499 { latestGroup = records.count - 1 }
                if type == 536 { latestFormula = records.count - 1 }
            } else if type == 498, let latestGroup {
                records[latestGroup].items.append(object.uint(679))
            } else if RiveDefinitions.type(type, isA: 537), let latestFormula {
                records[latestFormula].tokens.append(object)
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
            if object.typeKey == 499 {
                let items = record.items.map { item in
                    item.map { $0 < UInt64(Int.max) ? Self.reference(Int($0), names: names) : .number(Double($0)) } ?? .null
                }
                members.append(("items", .array(items)))
            }
            if object.typeKey == 536 { members.append(("tokens", .array(record.tokens.map(RiveGraph.jsonValue(of:))))) }
            return .object(members)
        }
    }
}
