import RiveSyncJSON

/// Reads a file's data converters in the JSON schema format (`protocol/SCHEMA.md`, "Data
/// converters"): each is a `.riv` converter object in the graph's form (`{"type":
/// "DataConverterToString", "name": "mood text", "decimals": 1}`, Rive's type and property
/// names), with what follows it in a `.riv` file given as members: a group's `items`
/// (converters by name or index), a formula's `tokens` (graph objects) and a range mapper's or
/// interpolator converter's `interpolator` (a graph object, stored with the file's
/// interpolators), and the `binds` that feed a converter's (or a token's) properties from
/// view-model properties. The result is what a `.riv` file stores before its first artboard,
/// in Rive's import order, so `DataConverters` collects the same converters from it.
struct ConverterJSONReader {
    /// The file's view models and enums (bind paths resolve against them).
    var schema = FileSchema()

    /// The converter types the evaluator runs (rive-runtime's `dev/defs` names).
    static let types = [
        "DataConverterOperationValue", "DataConverterOperationViewModel", "DataConverterSystemDegsToRads",
        "DataConverterSystemNormalizer", "DataConverterRangeMapper", "DataConverterRounder", "DataConverterToString",
        "DataConverterToNumber", "DataConverterStringPad", "DataConverterStringTrim", "DataConverterStringRemoveZeros",
        "DataConverterBooleanNegate", "DataConverterTrigger", "DataConverterListToLength", "DataConverterInterpolator",
        "DataConverterFormula", "DataConverterGroup",
    ]

    /// The objects to store: the interpolators (before the converters), the converters with
    /// their group items and formula tokens, and every converter's name by index.
    struct Result {
        var interpolators: [RiveObject] = []
        var objects: [RiveObject] = []
        var names: [String] = []
    }

    func read(_ items: [JSONValue], at here: String) throws(StateMachineJSONError) -> Result {
        var result = Result()
        result.names = items.map { $0["name"]?.stringValue ?? "" }
        let names = result.names
        for (index, item) in items.enumerated() {
            let at = "\(here)[\(index)]"
            guard let members = item.objectValue else { throw .invalidMember(at: at, expected: "an object") }
            let typeName = try MachineReader.string(item["type"], "\(at).type")
            guard Self.types.contains(typeName), let type = RiveDefinitions.type(named: typeName) else {
                throw .unknownType(at: "\(at).type", name: typeName, allowed: Self.types)
            }
            let special: Set<String> = ["items", "tokens", "interpolator", "binds"]
            for (name, _) in members where special.contains(name) || name == "interpolatorId" {
                let allowed =
                    switch name {
                    case "items": type.key == 499
                    case "tokens": type.key == 536
                    case "interpolator": type.key == 519 || type.key == 534
                    case "binds": true
                    default: false
                    }
                if !allowed { throw .unknownMember(at: "\(at).\(name)") }
            }
            var object = try Self.object(.object(members.filter { !special.contains($0.0) }), at: at)
            if let interpolator = item["interpolator"] {
                let read = try Self.object(interpolator, at: "\(at).interpolator")
                guard RiveDefinitions.type(read.typeKey, isA: 175), read.typeKey != 972 else {
                    throw .unknownType(
                        at: "\(at).interpolator.type", name: RiveDefinitions.type(read.typeKey)?.name ?? String(read.typeKey),
                        allowed: ["CubicEaseInterpolator", "CubicValueInterpolator", "ElasticInterpolator"])
                }
                object.properties[type.key == 519 ? 714 : 758] = .uint(UInt64(result.interpolators.count))
                result.interpolators.append(read)
            }
            result.objects.append(object)
            let reader = MachineReader(schema: schema, viewModel: nil, animations: [], converters: names)
            result.objects += try reader.converterBinds(item["binds"], on: object.typeKey, at: "\(at).binds")
            for (position, entry) in try MachineReader.array(item["items"], "\(at).items").enumerated() {
                guard let converter = try reader.converterIndex(entry, at: "\(at).items[\(position)]") else {
                    throw .unknownConverter(at: "\(at).items[\(position)]", name: "null")
                }
                result.objects.append(RiveObject(typeKey: ObjectType.dataConverterGroupItem, properties: [679: .uint(UInt64(converter))]))
            }
            for (position, entry) in try MachineReader.array(item["tokens"], "\(at).tokens").enumerated() {
                let tokenAt = "\(at).tokens[\(position)]"
                let token = try Self.object(.object((entry.objectValue ?? []).filter { $0.0 != "binds" }), at: tokenAt)
                guard RiveDefinitions.type(token.typeKey, isA: 537) else {
                    throw .unknownType(
                        at: "\(at).tokens[\(position)].type", name: RiveDefinitions.type(token.typeKey)?.name ?? String(token.typeKey),
                        allowed: ["FormulaTokenValue", "FormulaTokenInput", "FormulaTokenOperation", "FormulaTokenFunction", "…"])
                }
                result.objects.append(token)
                result.objects += try reader.converterBinds(entry["binds"], on: token.typeKey, at: "\(tokenAt).binds")
            }
        }
        return result
    }

    /// A graph object (`protocol/SCHEMA.md`, "The graph"); its errors name their JSON path.
    private static func object(_ json: JSONValue, at here: String) throws(StateMachineJSONError) -> RiveObject {
        do {
            return try RiveGraph.object(json, at: here)
        } catch {
            guard case .invalidData(let reason) = error else { throw .badObject(at: here, reason: "\(error)") }
            throw .badObject(at: here, reason: reason)
        }
    }
}
