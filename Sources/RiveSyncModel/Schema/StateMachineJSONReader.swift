import RiveSyncJSON

/// Reads the state machines artboards describe in the JSON schema format
/// (`protocol/SCHEMA.md`, "State machines") into the objects a `.riv` file stores for them,
/// in Rive's import order, so `StateMachineDefinition.build` and the one evaluator run them as
/// they run a `.riv` file's. Every problem is a `StateMachineJSONError` naming its JSON path.
struct StateMachineJSONReader {
    /// The file's view models and enums (property paths and values resolve against them).
    let schema: FileSchema

    /// One artboard's state machine descriptions, with where each is in the document.
    struct Described {
        var artboard: Int
        var machines: [(json: JSONValue, at: String)]
    }

    /// The graph: a `Backboard`, the file's interpolators and converters (`converters`), then
    /// every artboard in file order, each followed by its events and the components its data
    /// binds target (each with its binds), the animations its states name and its described
    /// state machines. Empty when no artboard describes a state machine and no converter is
    /// given.
    func graph(_ described: [Described], converters: JSONValue? = nil) throws(StateMachineJSONError) -> RiveGraph {
        let converterItems = try MachineReader.array(converters, "converters")
        guard described.contains(where: { !$0.machines.isEmpty }) || !converterItems.isEmpty else { return RiveGraph() }
        var objects = [RiveObject(typeKey: ObjectType.backboard)]
        let fileConverters = try ConverterJSONReader().read(converterItems, at: "converters")
        objects += fileConverters.interpolators + fileConverters.objects
        for (index, artboard) in schema.artboards.enumerated() {
            objects.append(RiveObject(typeKey: ObjectType.artboard, properties: [4: .text(artboard.name)]))
            let machines = described.filter { $0.artboard == index }.flatMap(\.machines)
            let viewModel = artboard.viewModelName.flatMap { name in schema.viewModels.first { $0.name == name } }
            var base = MachineReader(schema: schema, viewModel: viewModel, animations: [], converters: fileConverters.names)
            let parts = try base.readArtboardParts(machines)
            objects += base.objects
            let animations = Self.animationNames(machines.map(\.json))
            for name in animations {
                // An empty one-shot animation: the state it plays settles at once.
                objects.append(RiveObject(typeKey: ObjectType.linearAnimation, properties: [55: .text(name), 57: .uint(0)]))
            }
            for machine in machines {
                var reader = MachineReader(
                    schema: schema, viewModel: viewModel, animations: animations, converters: fileConverters.names, events: parts)
                try reader.read(machine.json, at: machine.at)
                objects += reader.objects
            }
        }
        return RiveGraph(objects: objects)
    }

    /// The animation names the machines' states play, in first-use order.
    private static func animationNames(_ machines: [JSONValue]) -> [String] {
        var names: [String] = []
        for machine in machines {
            for layer in machine["layers"]?.arrayValue ?? [] {
                for state in layer["states"]?.arrayValue ?? [] {
                    if let name = state["animation"]?.stringValue, !names.contains(name) { names.append(name) }
                }
            }
        }
        return names
    }
}

/// Type keys of the objects this format writes (rive-runtime's `dev/defs`).
enum ObjectType {
    static let backboard = 23
    static let artboard = 1
    static let linearAnimation = 31
    static let stateMachine = 53
    static let layer = 57
    static let numberInput = 56
    static let triggerInput = 58
    static let boolInput = 59
    static let animationState = 61
    static let anyState = 62
    static let entryState = 63
    static let exitState = 64
    static let transition = 65
    static let triggerCondition = 68
    static let numberCondition = 70
    static let boolCondition = 71
    static let viewModelCondition = 482
    static let propertyComparator = 479
    static let listener = 114
    static let viewModelChange = 487
    static let fireTrigger = 614
    static let dataBindContext = 447
    static let triggerComparator = 505
    static let selfComparator = 593
    static let event = 128
    static let listenerFireEvent = 168
    static let fireEvent = 169
    static let dataConverterGroupItem = 498
}

extension RiveFieldValue {
    static func text(_ string: String) -> RiveFieldValue { .bytes(Array(string.utf8)) }

    /// Varuints back to back, as an id list stores them.
    static func ids(_ ids: [Int]) -> RiveFieldValue {
        var bytes: [UInt8] = []
        for id in ids {
            var rest = UInt64(id)
            repeat {
                let low = UInt8(rest & 0x7F)
                rest >>= 7
                bytes.append(rest == 0 ? low : low | 0x80)
            } while rest != 0
        }
        return .bytes(bytes)
    }
}

/// Reads one state machine description.
struct MachineReader {
    let schema: FileSchema
    /// The artboard's view model, where property paths start.
    let viewModel: ViewModelSchema?
    /// The artboard's animations, by the index states use.
    let animations: [String]
    /// The file's converters' names, by index (references name one, or give its index).
    let converters: [String]
    /// The artboard's events by name, with their component ids.
    let events: [String: Int]
    var objects: [RiveObject] = []
    private var inputs: [(name: String, type: Int)] = []

    init(schema: FileSchema, viewModel: ViewModelSchema?, animations: [String], converters: [String], events: [String: Int] = [:]) {
        self.schema = schema
        self.viewModel = viewModel
        self.animations = animations
        self.converters = converters
        self.events = events
    }

    mutating func read(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        // `events` and `dataBinds` belong to the artboard: read before its animations.
        try known(json, ["name", "inputs", "layers", "listeners", "events", "dataBinds"], at: here)
        let name = try string(json["name"], "\(here).name")
        objects.append(RiveObject(typeKey: ObjectType.stateMachine, properties: [55: .text(name)]))
        for (index, input) in try array(json["inputs"], "\(here).inputs").enumerated() {
            try readInput(input, at: "\(here).inputs[\(index)]")
        }
        for (index, layer) in try array(json["layers"], "\(here).layers").enumerated() {
            try readLayer(layer, at: "\(here).layers[\(index)]")
        }
        for (index, listener) in try array(json["listeners"], "\(here).listeners").enumerated() {
            try readListener(listener, at: "\(here).listeners[\(index)]")
        }
    }

    // MARK: Inputs

    private mutating func readInput(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        try known(json, ["name", "type", "value"], at: here)
        let name = try string(json["name"], "\(here).name")
        guard !inputs.contains(where: { $0.name == name }) else { throw .duplicateName(at: "\(here).name", name: name) }
        let type = try string(json["type"], "\(here).type")
        var object: RiveObject
        switch type {
        case "number":
            object = RiveObject(typeKey: ObjectType.numberInput)
            if let value = json["value"] { object.properties[140] = .float(try number(value, "\(here).value")) }
        case "boolean":
            object = RiveObject(typeKey: ObjectType.boolInput)
            if let value = json["value"] { object.properties[141] = .uint(try bool(value, "\(here).value") ? 1 : 0) }
        case "trigger":
            object = RiveObject(typeKey: ObjectType.triggerInput)
        default:
            throw .unknownType(at: "\(here).type", name: type, allowed: ["number", "boolean", "trigger"])
        }
        object.properties[138] = .text(name)
        inputs.append((name, object.typeKey))
        objects.append(object)
    }

    // MARK: Layers, states, transitions

    private static let stateTypes = ["EntryState", "AnyState", "ExitState", "AnimationState"]

    private mutating func readLayer(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        try known(json, ["name", "states"], at: here)
        let name = try string(json["name"], "\(here).name")
        objects.append(RiveObject(typeKey: ObjectType.layer, properties: [138: .text(name)]))
        let states = try array(json["states"], "\(here).states")
        var names: [String?] = []
        for (index, state) in states.enumerated() {
            let type = try optionalString(state["type"], "\(here).states[\(index)].type") ?? "AnimationState"
            guard Self.stateTypes.contains(type) else {
                throw .unknownType(at: "\(here).states[\(index)].type", name: type, allowed: Self.stateTypes)
            }
            names.append(type == "AnimationState" ? state["animation"]?.stringValue : type)
        }
        for type in ["EntryState", "AnyState", "ExitState"] {
            let count = names.filter { $0 == type }.count
            if type == "EntryState" && count != 1 { throw .badLayer(at: "\(here).states", reason: "a layer needs one EntryState") }
            if count > 1 { throw .badLayer(at: "\(here).states", reason: "a layer has at most one \(type)") }
        }
        for (index, state) in states.enumerated() {
            try readState(state, name: names[index], at: "\(here).states[\(index)]", states: names)
        }
    }

    private mutating func readState(_ json: JSONValue, name: String?, at here: String, states: [String?])
        throws(StateMachineJSONError)
    {
        try known(json, ["type", "animation", "transitions", "actions"], at: here)
        let type = json["type"]?.stringValue ?? "AnimationState"
        switch type {
        case "EntryState": objects.append(RiveObject(typeKey: ObjectType.entryState))
        case "AnyState": objects.append(RiveObject(typeKey: ObjectType.anyState))
        case "ExitState": objects.append(RiveObject(typeKey: ObjectType.exitState))
        default:
            var state = RiveObject(typeKey: ObjectType.animationState)
            if let name, let index = animations.firstIndex(of: name) { state.properties[149] = .uint(UInt64(index)) }
            if let animation = json["animation"], animation.stringValue == nil {
                throw .invalidMember(at: "\(here).animation", expected: "an animation name")
            }
            objects.append(state)
        }
        try readFireActions(json["actions"], at: "\(here).actions")
        for (index, transition) in try array(json["transitions"], "\(here).transitions").enumerated() {
            try readTransition(transition, at: "\(here).transitions[\(index)]", states: states)
        }
    }

    private mutating func readTransition(_ json: JSONValue, at here: String, states: [String?]) throws(StateMachineJSONError) {
        let members: Set<String> = [
            "to", "conditions", "actions", "duration", "durationPercent", "exitTime", "exitTimePercent", "disabled", "pauseOnExit",
            "enableEarlyExit",
        ]
        try known(json, members, at: here)
        let target: Int
        if let index = json["to"]?.intValue {
            guard states.indices.contains(index) else { throw .unknownState(at: "\(here).to", name: String(index)) }
            target = index
        } else {
            let name = try string(json["to"], "\(here).to")
            let matches = states.indices.filter { states[$0] == name }
            guard matches.count == 1 else { throw .unknownState(at: "\(here).to", name: name) }
            target = matches[0]
        }
        var transition = RiveObject(typeKey: ObjectType.transition, properties: [151: .uint(UInt64(target))])
        var flags: UInt64 = 0
        // `StateTransitionFlags`: disabled 1, pause on exit 16, early exit 32.
        for (key, flag) in [("disabled", 1), ("pauseOnExit", 16), ("enableEarlyExit", 32)] {
            if try optionalBool(json[key], "\(here).\(key)") == true { flags |= UInt64(flag) }
        }
        // Duration in percent 2, exit time 4, exit time in percent 8.
        for (key, property, flag) in [
            ("duration", 158, 0), ("durationPercent", 158, 2), ("exitTime", 160, 4), ("exitTimePercent", 160, 12),
        ] {
            guard let value = json[key] else { continue }
            transition.properties[property] = .uint(try whole(value, "\(here).\(key)"))
            flags |= UInt64(flag)
        }
        if flags != 0 { transition.properties[152] = .uint(flags) }
        objects.append(transition)
        for (index, condition) in try array(json["conditions"], "\(here).conditions").enumerated() {
            try readCondition(condition, at: "\(here).conditions[\(index)]")
        }
        try readFireActions(json["actions"], at: "\(here).actions")
    }

    /// `{"fire": "path", "at": "start" | "end"}`: a `StateMachineFireTrigger`;
    /// `{"fireEvent": "name", "at": …}`: a `StateMachineFireEvent`.
    private mutating func readFireActions(_ json: JSONValue?, at here: String) throws(StateMachineJSONError) {
        for (index, action) in try array(json, here).enumerated() {
            let at = "\(here)[\(index)]"
            if action["fireEvent"] != nil {
                try known(action, ["fireEvent", "at"], at: at)
                var object = RiveObject(
                    typeKey: ObjectType.fireEvent, properties: [392: .uint(UInt64(try event(action["fireEvent"], at: "\(at).fireEvent")))])
                if try occursAtEnd(action["at"], at: "\(at).at") { object.properties[393] = .uint(1) }
                objects.append(object)
                continue
            }
            try known(action, ["fire", "at"], at: at)
            let (ids, property) = try resolve(try string(action["fire"], "\(at).fire"), at: "\(at).fire")
            guard property.type == .trigger else {
                throw .unusableProperty(at: "\(at).fire", path: action["fire"]?.stringValue ?? "", type: property.type.rawValue)
            }
            var object = RiveObject(typeKey: ObjectType.fireTrigger, properties: [871: .ids(ids)])
            if try occursAtEnd(action["at"], at: "\(at).at") { object.properties[393] = .uint(1) }
            objects.append(object)
        }
    }

    /// `"start"` (the default) or `"end"`: whether a fire action occurs at the end.
    private func occursAtEnd(_ json: JSONValue?, at here: String) throws(StateMachineJSONError) -> Bool {
        switch try optionalString(json, here) ?? "start" {
        case "start": return false
        case "end": return true
        default: throw .badValue(at: here, expected: "\"start\" or \"end\"")
        }
    }

    // MARK: Conditions

    private mutating func readCondition(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
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

    private mutating func readInputCondition(_ json: JSONValue, input name: String, at here: String) throws(StateMachineJSONError) {
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
    private static let valueComparator: [DataType: (Int, Int)] = [
        .number: (484, 652), .boolean: (481, 647), .string: (486, 654), .color: (483, 651), .enum: (485, 653),
    ]

    /// The bindable property for each type, and the key of its value.
    private static let bindable: [DataType: (Int, Int)] = [
        .string: (471, 635), .boolean: (472, 634), .number: (473, 636), .enum: (474, 637), .color: (475, 638), .trigger: (503, 686),
    ]

    private static let operations: [String: ConditionOperation] = [
        "equal": .equal, "notEqual": .notEqual, "lessThanOrEqual": .lessThanOrEqual, "greaterThanOrEqual": .greaterThanOrEqual,
        "lessThan": .lessThan, "greaterThan": .greaterThan,
    ]

    /// A `TransitionConditionOp` by name (default `equal`); orderings apply to numbers and enums.
    private func comparator(_ json: JSONValue?, type: DataType, at here: String) throws(StateMachineJSONError) -> ConditionOperation {
        let name = try optionalString(json, here) ?? "equal"
        guard let operation = Self.operations[name] else { throw .badComparator(at: here, comparator: name, type: type.rawValue) }
        guard Self.valueComparator[type] != nil else { throw .badComparator(at: here, comparator: name, type: type.rawValue) }
        if operation != .equal && operation != .notEqual && type != .number && type != .enum {
            throw .badComparator(at: here, comparator: name, type: type.rawValue)
        }
        return operation
    }

    // MARK: Listeners

    private mutating func readListener(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
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
    private mutating func readListenerAction(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
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

    // MARK: Binds and paths

    /// A bindable property of the property's type and its data bind to the property.
    private mutating func appendBindable(
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
    private func fieldValue(_ json: JSONValue, _ property: PropertySchema, at here: String) throws(StateMachineJSONError)
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
