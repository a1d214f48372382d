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
        let fileConverters = try ConverterJSONReader(schema: schema).read(converterItems, at: "converters")
        objects += fileConverters.interpolators + fileConverters.objects
        for (index, artboard) in schema.artboards.enumerated() {
            objects.append(RiveObject(typeKey: ObjectType.artboard, properties: [4: .text(artboard.name)]))
            let machines = described.filter { $0.artboard == index }.flatMap(\.machines)
            let viewModel = artboard.viewModelName.flatMap { name in schema.viewModels.first { $0.name == name } }
            var base = MachineReader(schema: schema, viewModel: viewModel, animations: [], converters: fileConverters.names)
            let parts = try base.readArtboardParts(machines)
            objects += base.objects
            let timelines = try base.readAnimations(machines, events: parts)
            var animations = Self.animationNames(machines.map(\.json))
            animations += timelines.map(\.name).filter { !animations.contains($0) }
            for name in animations {
                // Described, or an empty one-shot animation: the state it plays settles at once.
                objects +=
                    timelines.first { $0.name == name }?.objects
                    ?? [RiveObject(typeKey: ObjectType.linearAnimation, properties: [55: .text(name), 57: .uint(0)])]
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
    /// The legacy inputs read so far, with their type keys.
    var inputs: [(name: String, type: Int)] = []

    init(schema: FileSchema, viewModel: ViewModelSchema?, animations: [String], converters: [String], events: [String: Int] = [:]) {
        self.schema = schema
        self.viewModel = viewModel
        self.animations = animations
        self.converters = converters
        self.events = events
    }

    mutating func read(_ json: JSONValue, at here: String) throws(StateMachineJSONError) {
        // `events` and `dataBinds` belong to the artboard: read before its animations.
        try known(json, ["name", "inputs", "layers", "listeners", "events", "dataBinds", "animations"], at: here)
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

}
