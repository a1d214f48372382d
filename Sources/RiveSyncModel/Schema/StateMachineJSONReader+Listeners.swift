import RiveSyncJSON

/// Listeners in the JSON schema format: on a view-model value or an event, with their actions.
extension MachineReader {
    mutating func readListener(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        try known(json, json["event"] != nil ? ["name", "event", "actions"] : ["name", "property", "actions"], at: here)
        let name = try optionalString(json["name"], "\(here).name") ?? ""
        if json["event"] != nil {
            // `listenerType` 5: an event the artboard reported.
            let id = try event(json["event"], at: "\(here).event")
            objects.append(RiveObject(typeKey: ObjectType.listener, properties: [138: .text(name), 225: .uint(5), 399: .uint(UInt64(id))]))
            for (index, action) in try array(json["actions"], "\(here).actions").enumerated() {
                try readListenerAction(action, at: "\(here).actions[\(index)]")
            }
            return
        }
        let path = try string(json["property"], "\(here).property")
        let (ids, _) = try resolve(path, at: "\(here).property")
        // `listenerType` 11: a view-model value changed.
        objects.append(RiveObject(typeKey: ObjectType.listener, properties: [138: .text(name), 225: .uint(11), 868: .ids(ids)]))
        for (index, action) in try array(json["actions"], "\(here).actions").enumerated() {
            try readListenerAction(action, at: "\(here).actions[\(index)]")
        }
    }

    /// `{"set": path, "value": v}`, `{"set": path, "otherProperty": path}` or `{"fire": path}`: a
    /// `ListenerViewModelChange` with its bindable and binds; `{"input": name, "value": v}`: a
    /// `ListenerNumberChange` or `ListenerBoolChange` (a trigger input, without a value, fires).
    mutating func readListenerAction(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        let form: Set<String> =
            json["input"] != nil
            ? ["input", "value"]
            : json["fire"] != nil
                ? ["fire"] : json["fireEvent"] != nil ? ["fireEvent"] : ["set", "value", "otherProperty", "converter"]
        try known(json, form, at: here)
        if json["fireEvent"] != nil {
            let id = try event(json["fireEvent"], at: "\(here).fireEvent")
            objects.append(RiveObject(typeKey: ObjectType.listenerFireEvent, properties: [389: .uint(UInt64(id))]))
            return
        }
        if let input = json["input"] {
            let name = try string(input, "\(here).input")
            guard let index = inputs.firstIndex(where: { $0.name == name }) else { throw .noSuchProperty(at: "\(here).input", path: name) }
            var action = RiveObject(typeKey: 0, properties: [227: .uint(UInt64(index))])
            switch inputs[index].type {
            case ObjectType.triggerInput: action.typeKey = 115
            case ObjectType.boolInput:
                action.typeKey = 117
                action.properties[228] = .uint(try bool(json["value"] ?? .bool(true), "\(here).value") ? 1 : 0)
            default:
                action.typeKey = 118
                action.properties[229] = .float(try number(json["value"], "\(here).value"))
            }
            objects.append(action)
            return
        }
        if let fire = json["fire"] {
            let path = try string(fire, "\(here).fire")
            let (ids, property) = try resolve(path, at: "\(here).fire")
            guard property.type == .trigger else { throw .unusableProperty(at: "\(here).fire", path: path, type: property.type.rawValue) }
            try appendBindable(property, ids: ids, flags: 1, at: "\(here).fire")
            objects.append(RiveObject(typeKey: ObjectType.viewModelChange))
            return
        }
        let path = try string(json["set"], "\(here).set")
        let (ids, property) = try resolve(path, at: "\(here).set")
        guard let (typeKey, key) = Self.bindable[property.type], property.type != .trigger, property.type != .enum else {
            throw .unusableProperty(at: "\(here).set", path: path, type: property.type.rawValue)
        }
        if let other = json["otherProperty"] {
            let otherPath = try string(other, "\(here).otherProperty")
            let (otherIDs, otherProperty) = try resolve(otherPath, at: "\(here).otherProperty")
            let fits = otherProperty.type == property.type || (otherProperty.type == .number && property.type == .string)
            guard fits else { throw .unusableProperty(at: "\(here).otherProperty", path: otherPath, type: otherProperty.type.rawValue) }
            objects.append(RiveObject(typeKey: typeKey))
            let converter = try converterIndex(json["converter"], at: "\(here).converter")
            objects.append(Self.bind(ids: otherIDs, key: key, flags: 0, converter: converter))
        } else {
            if json["converter"] != nil {
                throw .invalidMember(at: "\(here).converter", expected: "otherProperty for a converter to convert")
            }
            guard let value = json["value"] else { throw .invalidMember(at: "\(here).value", expected: "a value (or otherProperty)") }
            objects.append(RiveObject(typeKey: typeKey, properties: [key: try fieldValue(value, property, at: "\(here).value")]))
        }
        objects.append(Self.bind(ids: ids, key: key, flags: 1))
        objects.append(RiveObject(typeKey: ObjectType.viewModelChange))
    }
}
