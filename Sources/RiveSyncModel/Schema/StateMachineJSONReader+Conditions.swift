import RiveSyncJSON

/// A transition's conditions in the JSON schema format: view-model comparisons
/// (`TransitionViewModelCondition` with its comparators) and legacy input conditions.
extension MachineReader {
    mutating func readCondition(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        let form: Set<String> =
            json["input"] != nil
            ? ["input", "op", "value"]
            : json["trigger"] != nil
                ? ["trigger"] : json["changed"] != nil ? ["changed"] : ["property", "op", "value", "otherProperty", "converter"]
        try known(json, form, at: here)
        if let input = json["input"] {
            try readInputCondition(json, input: try string(input, "\(here).input"), at: here)
            return
        }
        if let trigger = json["trigger"] {
            let path = try string(trigger, "\(here).trigger")
            let (ids, property) = try resolve(path, at: "\(here).trigger")
            guard property.type == .trigger else {
                throw .unusableProperty(at: "\(here).trigger", path: path, type: property.type.rawValue)
            }
            objects.append(RiveObject(typeKey: ObjectType.viewModelCondition, properties: [650: .uint(1)]))
            try appendBindable(property, ids: ids, flags: 0, at: "\(here).trigger")
            objects.append(RiveObject(typeKey: ObjectType.propertyComparator))
            objects.append(RiveObject(typeKey: ObjectType.triggerComparator))
            return
        }
        if let changed = json["changed"] {
            let path = try string(changed, "\(here).changed")
            let (ids, property) = try resolve(path, at: "\(here).changed")
            objects.append(RiveObject(typeKey: ObjectType.viewModelCondition))
            try appendBindable(property, ids: ids, flags: 0, at: "\(here).changed")
            objects.append(RiveObject(typeKey: ObjectType.propertyComparator))
            objects.append(RiveObject(typeKey: ObjectType.selfComparator))
            return
        }
        let path = try string(json["property"], "\(here).property")
        let (ids, property) = try resolve(path, at: "\(here).property")
        let operation = try comparator(json["op"], type: property.type, at: "\(here).op")
        var condition = RiveObject(typeKey: ObjectType.viewModelCondition)
        if operation != .equal { condition.properties[650] = .uint(operation.rawValue) }
        objects.append(condition)
        let converter = try converterIndex(json["converter"], at: "\(here).converter")
        try appendBindable(property, ids: ids, flags: 0, at: "\(here).property", converter: converter)
        objects.append(RiveObject(typeKey: ObjectType.propertyComparator))
        if let other = json["otherProperty"] {
            let otherPath = try string(other, "\(here).otherProperty")
            let (otherIDs, otherProperty) = try resolve(otherPath, at: "\(here).otherProperty")
            guard otherProperty.type == property.type else {
                throw .unusableProperty(at: "\(here).otherProperty", path: otherPath, type: otherProperty.type.rawValue)
            }
            try appendBindable(otherProperty, ids: otherIDs, flags: 0, at: "\(here).otherProperty")
            objects.append(RiveObject(typeKey: ObjectType.propertyComparator))
        } else {
            guard let value = json["value"] else { throw .invalidMember(at: "\(here).value", expected: "a value (or otherProperty)") }
            let (typeKey, key) = Self.valueComparator[property.type]!
            objects.append(RiveObject(typeKey: typeKey, properties: [key: try fieldValue(value, property, at: "\(here).value")]))
        }
    }

    mutating func readInputCondition(_ json: JSONValue, input name: String, at here: String) throws(StateMachineJSONError) {
        guard let index = inputs.firstIndex(where: { $0.name == name }) else {
            throw .noSuchProperty(at: "\(here).input", path: name)
        }
        var condition = RiveObject(typeKey: 0, properties: [155: .uint(UInt64(index))])
        switch inputs[index].type {
        case ObjectType.triggerInput:
            condition.typeKey = ObjectType.triggerCondition
        case ObjectType.boolInput:
            condition.typeKey = ObjectType.boolCondition
            let operation = try comparator(json["op"], type: .boolean, at: "\(here).op")
            let value = try bool(json["value"] ?? .bool(true), "\(here).value")
            // Rive's bool condition holds when the input is true for `equal`.
            if value != (operation == .equal) { condition.properties[156] = .uint(ConditionOperation.notEqual.rawValue) }
        default:
            condition.typeKey = ObjectType.numberCondition
            let operation = try comparator(json["op"], type: .number, at: "\(here).op")
            if operation != .equal { condition.properties[156] = .uint(operation.rawValue) }
            condition.properties[157] = .float(try number(json["value"], "\(here).value"))
        }
        objects.append(condition)
    }

    /// The value comparator for each type a condition compares with a literal, and its value key.
    static let valueComparator: [DataType: (Int, Int)] = [
        .number: (484, 652), .boolean: (481, 647), .string: (486, 654), .color: (483, 651), .enum: (485, 653),
    ]

    /// The bindable property for each type, and the key of its value.
    static let bindable: [DataType: (Int, Int)] = [
        .string: (471, 635), .boolean: (472, 634), .number: (473, 636), .enum: (474, 637), .color: (475, 638), .trigger: (503, 686),
    ]

    static let operations: [String: ConditionOperation] = [
        "equal": .equal, "notEqual": .notEqual, "lessThanOrEqual": .lessThanOrEqual, "greaterThanOrEqual": .greaterThanOrEqual,
        "lessThan": .lessThan, "greaterThan": .greaterThan,
    ]

    /// A `TransitionConditionOp` by name (default `equal`); orderings apply to numbers and enums.
    func comparator(_ json: JSONValue?, type: DataType, at here: String) throws(StateMachineJSONError) -> ConditionOperation {
        let name = try optionalString(json, here) ?? "equal"
        guard let operation = Self.operations[name] else { throw .badComparator(at: here, comparator: name, type: type.rawValue) }
        guard Self.valueComparator[type] != nil else { throw .badComparator(at: here, comparator: name, type: type.rawValue) }
        if operation != .equal && operation != .notEqual && type != .number && type != .enum {
            throw .badComparator(at: here, comparator: name, type: type.rawValue)
        }
        return operation
    }
}
