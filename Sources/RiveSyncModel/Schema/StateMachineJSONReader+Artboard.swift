import RiveSyncJSON

/// What a state machine description gives for its whole artboard (`protocol/SCHEMA.md`, "State
/// machines"): the artboard's `events` and its `dataBinds` to components. A `.riv` file stores
/// them as the artboard's components, each followed by the data binds that target it, before
/// its animations; every state machine of the artboard sees them.
extension MachineReader {
    /// Reads the `events` and `dataBinds` of the artboard's described state machines into
    /// `objects`: the events (`Event` components), then every other component a bind targets,
    /// in first-use order, each followed by its binds. Returns the events' component ids by
    /// name (the artboard is component 0).
    mutating func readArtboardParts(_ machines: [(json: JSONValue, at: String)]) throws(StateMachineJSONError) -> [String: Int] {
        var components: [(label: String, object: RiveObject, binds: [RiveObject])] = []
        var events: [String: Int] = [:]
        for machine in machines {
            for (index, event) in try array(machine.json["events"], "\(machine.at).events").enumerated() {
                let at = "\(machine.at).events[\(index)]"
                try known(event, ["name"], at: at)
                let name = try string(event["name"], "\(at).name")
                guard events[name] == nil else { throw .duplicateName(at: "\(at).name", name: name) }
                events[name] = components.count + 1
                components.append(("Event '\(name)'", RiveObject(typeKey: ObjectType.event, properties: [4: .text(name)]), []))
            }
        }
        for machine in machines {
            for (index, bind) in try array(machine.json["dataBinds"], "\(machine.at).dataBinds").enumerated() {
                let at = "\(machine.at).dataBinds[\(index)]"
                let members: Set<String> = [
                    "property", "target", "targetProperty", "targetValue", "direction", "once", "sourceToTargetFirst", "converter",
                ]
                try known(bind, members, at: at)
                let (ids, _) = try resolve(try string(bind["property"], "\(at).property"), at: "\(at).property")
                let label = try string(bind["target"], "\(at).target")
                let position: Int
                if let found = components.firstIndex(where: { $0.label == label }) {
                    position = found
                } else {
                    components.append((label, try Self.component(label, at: "\(at).target"), []))
                    position = components.count - 1
                }
                let typeKey = components[position].object.typeKey
                let propertyName = try string(bind["targetProperty"], "\(at).targetProperty")
                guard let property = RiveDefinitions.property(named: propertyName, on: typeKey) else {
                    throw .noSuchTargetProperty(
                        at: "\(at).targetProperty", property: propertyName, type: RiveDefinitions.type(typeKey)?.name ?? "")
                }
                if let value = bind["targetValue"] {
                    components[position].object.properties[property.key] = try Self.stored(value, property, at: "\(at).targetValue")
                }
                let converter = try converterIndex(bind["converter"], at: "\(at).converter")
                components[position].binds.append(
                    Self.bind(ids: ids, key: property.key, flags: try Self.bindFlags(bind, at: at), converter: converter))
            }
        }
        for component in components { objects += [component.object] + component.binds }
        return events
    }

    /// The `animations` of the artboard's described state machines: each a `LinearAnimation`
    /// with its timing (`fps`, `duration` in frames, `speed`, `loop`), followed, for each
    /// event keyed on it, by a `KeyedObject` on the event, its `trigger` `KeyedProperty` and a
    /// `KeyFrameCallback` per `frame` the event is reported at.
    func readAnimations(_ machines: [(json: JSONValue, at: String)], events: [String: Int]) throws(StateMachineJSONError)
        -> [(name: String, objects: [RiveObject])]
    {
        var animations: [(name: String, objects: [RiveObject])] = []
        for machine in machines {
            for (index, animation) in try array(machine.json["animations"], "\(machine.at).animations").enumerated() {
                let at = "\(machine.at).animations[\(index)]"
                try known(animation, ["name", "fps", "duration", "speed", "loop", "events"], at: at)
                let name = try string(animation["name"], "\(at).name")
                guard !animations.contains(where: { $0.name == name }) else { throw .duplicateName(at: "\(at).name", name: name) }
                var timeline = RiveObject(typeKey: ObjectType.linearAnimation, properties: [55: .text(name), 57: .uint(0)])
                if let fps = animation["fps"] {
                    let value = try whole(fps, "\(at).fps")
                    guard value > 0 else { throw .badValue(at: "\(at).fps", expected: "a whole number above 0") }
                    timeline.properties[56] = .uint(value)
                }
                if let duration = animation["duration"] { timeline.properties[57] = .uint(try whole(duration, "\(at).duration")) }
                if let speed = animation["speed"] { timeline.properties[58] = .float(try number(speed, "\(at).speed")) }
                let loops = ["oneShot", "loop", "pingPong"]
                if let loop = try optionalString(animation["loop"], "\(at).loop") {
                    guard let value = loops.firstIndex(of: loop) else { throw .unknownType(at: "\(at).loop", name: loop, allowed: loops) }
                    timeline.properties[59] = .uint(UInt64(value))
                }
                var keyed: [(event: Int, frames: [UInt64])] = []
                for (position, entry) in try array(animation["events"], "\(at).events").enumerated() {
                    let here = "\(at).events[\(position)]"
                    try known(entry, ["event", "frame"], at: here)
                    let eventName = try string(entry["event"], "\(here).event")
                    guard let id = events[eventName] else { throw .unknownEvent(at: "\(here).event", name: eventName) }
                    let frame = try whole(entry["frame"] ?? .null, "\(here).frame")
                    if let found = keyed.firstIndex(where: { $0.event == id }) {
                        keyed[found].frames.append(frame)
                    } else {
                        keyed.append((id, [frame]))
                    }
                }
                var objects = [timeline]
                for (id, frames) in keyed {
                    objects.append(RiveObject(typeKey: 25, properties: [51: .uint(UInt64(id))]))
                    objects.append(RiveObject(typeKey: 26, properties: [53: .uint(UInt64(KeyedCallback.eventTriggerPropertyKey))]))
                    objects += frames.sorted().map { RiveObject(typeKey: KeyFrame.TypeKey.callback, properties: [67: .uint($0)]) }
                }
                animations.append((name, objects))
            }
        }
        return animations
    }

    /// The `binds` of a converter or formula token (of type `typeKey`): `{"property": P,
    /// "targetProperty": NAME, …}` with a bind's other members, P from another view model
    /// (`@Name/…`, converters belonging to the file).
    func converterBinds(_ json: JSONValue?, on typeKey: Int, at here: String) throws(StateMachineJSONError) -> [RiveObject] {
        var objects: [RiveObject] = []
        for (index, bind) in try array(json, here).enumerated() {
            let at = "\(here)[\(index)]"
            try known(bind, ["property", "targetProperty", "direction", "once", "sourceToTargetFirst", "converter"], at: at)
            let path = try string(bind["property"], "\(at).property")
            guard path.hasPrefix("@") else { throw .badValue(at: "\(at).property", expected: "a path from a view model, @Name/…") }
            let (ids, _) = try resolve(path, at: "\(at).property")
            let propertyName = try string(bind["targetProperty"], "\(at).targetProperty")
            guard let property = RiveDefinitions.property(named: propertyName, on: typeKey) else {
                throw .noSuchTargetProperty(
                    at: "\(at).targetProperty", property: propertyName, type: RiveDefinitions.type(typeKey)?.name ?? "")
            }
            let converter = try converterIndex(bind["converter"], at: "\(at).converter")
            objects.append(Self.bind(ids: ids, key: property.key, flags: try Self.bindFlags(bind, at: at), converter: converter))
        }
        return objects
    }

    /// `DataBindFlags` from `direction` (`toTarget`, the default; `toSource`; `twoWay`), `once`
    /// and `sourceToTargetFirst`.
    private static func bindFlags(_ bind: JSONValue, at here: String) throws(StateMachineJSONError) -> UInt64 {
        var flags: UInt64
        switch try MachineReader.optionalText(bind["direction"], "\(here).direction") ?? "toTarget" {
        case "toTarget": flags = 0
        case "toSource": flags = 1
        case "twoWay": flags = 2
        case let other: throw .unknownType(at: "\(here).direction", name: other, allowed: ["toTarget", "toSource", "twoWay"])
        }
        for (key, flag) in [("once", UInt64(4)), ("sourceToTargetFirst", 8)] {
            guard let value = bind[key] else { continue }
            guard let set = value.boolValue else { throw .badValue(at: "\(here).\(key)", expected: "true or false") }
            if set { flags |= flag }
        }
        return flags
    }

    /// A component from its label, as `inspect --graph` writes it: `Type 'name'`, or `Type #n`
    /// for one without a name (the number only tells such components apart).
    private static func component(_ label: String, at here: String) throws(StateMachineJSONError) -> RiveObject {
        guard let space = label.firstIndex(of: " "), let type = RiveDefinitions.type(named: String(label[..<space])),
            RiveDefinitions.type(type.key, isA: 10), type.key != ObjectType.artboard
        else { throw .badTarget(at: here, target: label) }
        let rest = label[label.index(after: space)...]
        if rest.count >= 2, rest.hasPrefix("'"), rest.hasSuffix("'") {
            return RiveObject(typeKey: type.key, properties: [4: .text(String(rest.dropFirst().dropLast()))])
        }
        guard rest.hasPrefix("#"), Int(rest.dropFirst()) != nil else { throw .badTarget(at: here, target: label) }
        return RiveObject(typeKey: type.key)
    }

    /// A target's stored value in its property's kind.
    private static func stored(_ json: JSONValue, _ property: RiveDefinitions.PropertyDefinition, at here: String)
        throws(StateMachineJSONError) -> RiveFieldValue
    {
        do {
            return try RiveGraph.fieldValue(json, kind: property.kind, at: here)
        } catch {
            guard case .invalidData(let reason) = error else { throw .badObject(at: here, reason: "\(error)") }
            throw .badObject(at: here, reason: reason)
        }
    }
}
