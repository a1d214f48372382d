import RiveSyncJSON

/// The pieces every part of a description uses: bindables and data binds, converter and event
/// references, property paths, values and the JSON members they come from.
extension MachineReader {
    // MARK: Binds and paths

    /// A bindable property of the property's type and its data bind to the property.
    mutating func appendBindable(
        _ property: PropertySchema, ids: [Int], flags: UInt64, at here: String, converter: Int? = nil
    ) throws(StateMachineJSONError) {
        guard let (typeKey, key) = Self.bindable[property.type] else {
            throw .unusableProperty(at: here, path: property.name, type: property.type.rawValue)
        }
        objects.append(RiveObject(typeKey: typeKey))
        objects.append(Self.bind(ids: ids, key: key, flags: flags, converter: converter))
    }

    /// A `DataBindContext` (`DataBindFlags`: 0 binds to the target, 1 to the source, 2 both
    /// ways, 4 once, 8 source to target first), with its converter's index.
    static func bind(ids: [Int], key: Int, flags: UInt64, converter: Int? = nil) -> RiveObject {
        var object = RiveObject(typeKey: ObjectType.dataBindContext, properties: [586: .uint(UInt64(key)), 588: .ids(ids)])
        if flags != 0 { object.properties[587] = .uint(flags) }
        if let converter { object.properties[660] = .uint(UInt64(converter)) }
        return object
    }

    /// A converter reference: the name of one of the file's converters (unique), or its index.
    func converterIndex(_ json: JSONValue?, at here: String) throws(StateMachineJSONError) -> Int? {
        guard let json, !json.isNull else { return nil }
        if let index = json.intValue {
            guard converters.indices.contains(index) else { throw .unknownConverter(at: here, name: String(index)) }
            return index
        }
        let name = try string(json, here)
        let matches = converters.indices.filter { converters[$0] == name }
        guard matches.count == 1 else { throw .unknownConverter(at: here, name: name) }
        return matches[0]
    }

    /// An event of the artboard, by name: its component id.
    func event(_ json: JSONValue?, at here: String) throws(StateMachineJSONError) -> Int {
        let name = try string(json, here)
        guard let id = events[name] else { throw .unknownEvent(at: here, name: name) }
        return id
    }

    /// A property path (`mood`, `child/x`; `@Theme/accent` from another view model: a global, or
    /// a nested artboard's data context) as a data bind's source path: the view model's index,
    /// then property indices.
    func resolve(_ path: String, at here: String) throws(StateMachineJSONError) -> ([Int], PropertySchema) {
        let names: [String]
        do {
            names = try PropertyPath.names(of: path)
        } catch {
            throw .noSuchProperty(at: here, path: path)
        }
        var rest = names[...]
        var current: ViewModelSchema
        if let first = names.first, first.hasPrefix("@") {
            guard let other = schema.viewModels.first(where: { $0.name == first.dropFirst() }) else {
                throw .noSuchProperty(at: here, path: path)
            }
            current = other
            rest = rest.dropFirst()
        } else {
            guard let viewModel else { throw .noViewModel(at: here) }
            current = viewModel
        }
        guard let index = schema.viewModels.firstIndex(where: { $0.name == current.name }), !rest.isEmpty else {
            throw .noSuchProperty(at: here, path: path)
        }
        var ids = [index]
        while let name = rest.first {
            guard let position = current.properties.firstIndex(where: { $0.name == name }) else {
                throw .noSuchProperty(at: here, path: path)
            }
            ids.append(position)
            rest = rest.dropFirst()
            let property = current.properties[position]
            if rest.isEmpty { return (ids, property) }
            guard property.type == .viewModel, let next = property.viewModelName,
                let nested = schema.viewModels.first(where: { $0.name == next })
            else { throw .noSuchProperty(at: here, path: path) }
            current = nested
        }
        throw .noSuchProperty(at: here, path: path)
    }

    // MARK: Values

    /// A literal as the property's type stores it in a `.riv` object.
    func fieldValue(_ json: JSONValue, _ property: PropertySchema, at here: String) throws(StateMachineJSONError)
        -> RiveFieldValue
    {
        switch property.type {
        case .number: return .float(try number(json, here))
        case .boolean: return .uint(try bool(json, here) ? 1 : 0)
        case .string: return .text(try string(json, here))
        case .color:
            guard let text = json.stringValue, let color = ColorText.parse(text) else {
                throw .badValue(at: here, expected: "a colour \"#AARRGGBB\"")
            }
            return .color(color)
        case .enum:
            let values = property.enumName.flatMap { schema.enumSchema(named: $0) }?.values ?? []
            guard let text = json.stringValue, let index = values.firstIndex(of: text) else {
                throw .badValue(at: here, expected: "one of \(values.joined(separator: ", "))")
            }
            return .uint(UInt64(index))
        default:
            throw .unusableProperty(at: here, path: property.name, type: property.type.rawValue)
        }
    }

    func whole(_ json: JSONValue, _ here: String) throws(StateMachineJSONError) -> UInt64 {
        guard let n = json.intValue, n >= 0, n <= Int(UInt32.max) else {
            throw .badValue(at: here, expected: "a whole number")
        }
        return UInt64(n)
    }

    func number(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> Float {
        guard let n = json?.numberValue, Float(n).isFinite else { throw .badValue(at: here, expected: "a number") }
        return Float(n)
    }

    func bool(_ json: JSONValue, _ here: String) throws(StateMachineJSONError) -> Bool {
        guard let b = json.boolValue else { throw .badValue(at: here, expected: "true or false") }
        return b
    }

    func optionalBool(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> Bool? {
        guard let json, !json.isNull else { return nil }
        return try bool(json, here)
    }

    /// Refuses a member this format does not know (a typo, or what only a `.riv` file holds).
    func known(_ json: JSONValue, _ names: Set<String>, at here: String) throws(StateMachineJSONError) {
        guard let members = json.objectValue else { throw .invalidMember(at: here, expected: "an object") }
        for (name, _) in members where !names.contains(name) { throw .unknownMember(at: "\(here).\(name)") }
    }

    func array(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> [JSONValue] {
        try Self.array(json, here)
    }

    static func array(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> [JSONValue] {
        guard let json, !json.isNull else { return [] }
        guard let items = json.arrayValue else { throw .invalidMember(at: here, expected: "an array") }
        return items
    }

    func string(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> String {
        try Self.string(json, here)
    }

    static func string(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> String {
        guard let text = json?.stringValue else { throw .invalidMember(at: here, expected: "a string") }
        return text
    }

    func optionalString(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> String? {
        try Self.optionalText(json, here)
    }

    static func optionalText(_ json: JSONValue?, _ here: String) throws(StateMachineJSONError) -> String? {
        guard let json, !json.isNull else { return nil }
        return try string(json, here)
    }
}
