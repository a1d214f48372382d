import RiveSyncJSON

/// Why a persisted state machine state could not be restored.
public enum StateMachinePersistenceError: Error, Sendable, Hashable {
    /// A member is missing or has the wrong type (its name).
    case invalidMember(String)
    /// The state does not fit the file's state machine (layer, state, animation or input
    /// counts differ).
    case mismatch(String)
}

extension StateMachineInstance {
    /// Everything an advance leaves behind, as strict JSON: each layer's state, animation time
    /// and transition, the inputs, bound components' values, reported listeners and events not
    /// run yet, whether a bind pass is pending, where the formulas' random sequence is, and
    /// what each bind's converter keeps (an interpolator under way), and the same for each
    /// nested artboard's state machine. `restore(from:)` reads it back.
    public var persistentJSON: JSONValue {
        .object([
            ("layers", .array(layers.map(Self.json))),
            ("inputs", .array(inputs.map { .object([("value", .number(Double($0.number))), ("fired", .bool($0.fired))]) })),
            (
                "components",
                .array(
                    componentValues.keys.sorted { ($0.component, $0.key) < ($1.component, $1.key) }.map { key in
                        .object([
                            ("component", .number(Double(key.component))), ("key", .number(Double(key.key))),
                            ("value", Self.json(componentValues[key]!)),
                        ])
                    })
            ),
            ("listeners", .array(reportedListeners.map { .number(Double($0)) })),
            (
                "events",
                .array(pendingEvents.map { .object([("target", .number(Double($0.target))), ("event", .number(Double($0.event)))]) })
            ),
            ("bindPassPending", .bool(bindPassPending)), ("settled", .bool(isSettled)),
            ("random", .string(String(random.state, radix: 16))), ("converters", .array(convertersJSON)),
            ("nested", .array(nested.map(\.machine.persistentJSON))),
        ])
    }

    /// Restores what `persistentJSON` wrote (the definition must be the same file's).
    public mutating func restore(from json: JSONValue) throws(StateMachinePersistenceError) {
        let layerStates = try Self.array(json["layers"], "layers")
        guard layerStates.count == layers.count else { throw .mismatch("\(layerStates.count) layers, the file has \(layers.count)") }
        for (index, state) in layerStates.enumerated() { layers[index] = try layer(state, index) }
        let inputStates = try Self.array(json["inputs"], "inputs")
        guard inputStates.count == inputs.count else { throw .mismatch("\(inputStates.count) inputs, the file has \(inputs.count)") }
        for (index, input) in inputStates.enumerated() {
            inputs[index].number = Float(try Self.number(input["value"], "inputs.value"))
            inputs[index].fired = try Self.bool(input["fired"], "inputs.fired")
        }
        componentValues = [:]
        for item in try Self.array(json["components"], "components") {
            let key = BoundComponentProperty(
                component: try Self.int(item["component"], "components.component"), key: try Self.int(item["key"], "components.key"))
            componentValues[key] = try Self.value(item["value"])
        }
        reportedListeners = []
        for item in try Self.array(json["listeners"], "listeners") { reportedListeners.append(try Self.int(item, "listeners")) }
        pendingEvents = []
        for item in try Self.array(json["events"], "events") {
            pendingEvents.append(
                PendingEvent(target: try Self.int(item["target"], "events.target"), event: try Self.int(item["event"], "events.event")))
        }
        bindPassPending = try Self.bool(json["bindPassPending"], "bindPassPending")
        isSettled = try Self.bool(json["settled"], "settled")
        try restoreConverters(json["converters"])
        // A state persisted before nested state machines were kept leaves them at their entry.
        if let states = json["nested"] {
            let states = try Self.array(states, "nested")
            guard states.count == nested.count else {
                throw .mismatch("\(states.count) nested state machines, the file has \(nested.count)")
            }
            for (index, state) in states.enumerated() { try nested[index].machine.restore(from: state) }
        }
        // A state persisted before formulas drew seeded numbers has none: the sequence starts over.
        if let text = json["random"] {
            guard let state = text.stringValue.flatMap({ UInt64($0, radix: 16) }) else { throw .invalidMember("random") }
            random = SeededRandom(state: state)
        } else {
            random = SeededRandom()
        }
    }

    /// The state of each bind's converter that keeps one, in bind order.
    private var convertersJSON: [JSONValue] {
        let slots = bindConverters.keys.sorted { Self.slotKey($0) < Self.slotKey($1) }
        return slots.compactMap { slot in
            bindConverters[slot]?.persistentState.map { .object([("bind", .string(Self.slotKey(slot))), ("state", $0)]) }
        }
    }

    /// A bind slot as persisted: `a` (artboard) or `s` (state machine) and the bind's index,
    /// zero-padded so that the keys sort in bind order.
    private static func slotKey(_ slot: BindSlot) -> String {
        let (prefix, index) =
            switch slot {
            case .artboard(let index): ("a", index)
            case .stateMachine(let index): ("s", index)
            }
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    /// Starts every converter over, then restores the states persisted (none in a state
    /// persisted before converters were kept).
    private mutating func restoreConverters(_ json: JSONValue?) throws(StateMachinePersistenceError) {
        let slots = Dictionary(uniqueKeysWithValues: bindConverters.keys.map { (Self.slotKey($0), $0) })
        resetConverters()
        guard let json else { return }
        for item in try Self.array(json, "converters") {
            guard let key = item["bind"]?.stringValue, let slot = slots[key], let state = item["state"] else {
                throw .mismatch("no converter for \(item["bind"]?.jsonText ?? "a bind")")
            }
            guard bindConverters[slot]!.restoreState(state) else { throw .invalidMember("converters.state") }
        }
    }

    private static func json(_ layer: LayerInstance) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("state", .number(Double(layer.state))), ("mix", .number(Double(layer.mix))),
            ("transitionCompleted", .bool(layer.transitionCompleted)), ("waitingForExit", .bool(layer.waitingForExit)),
        ]
        if let clock = layer.clock {
            members.append(
                (
                    "clock",
                    .object([
                        ("time", .number(Double(clock.time))), ("totalTime", .number(Double(clock.totalTime))),
                        ("lastTotalTime", .number(Double(clock.lastTotalTime))), ("direction", .number(Double(clock.direction))),
                        ("keepGoing", .bool(clock.keepGoing)),
                    ])
                ))
        }
        if let origin = layer.transitionOrigin {
            members.append(("transition", .object([("state", .number(Double(origin.state))), ("index", .number(Double(origin.index)))])))
        }
        if let mixing = layer.mixing { members.append(("mixing", json(mixing))) }
        return .object(members)
    }

    private func layer(_ json: JSONValue, _ index: Int) throws(StateMachinePersistenceError) -> LayerInstance {
        var layer = LayerInstance(layer: definition.layers[index])
        layer.state = try Self.int(json["state"], "layers.state")
        let states = definition.layers[index].states
        guard states.indices.contains(layer.state) else { throw .mismatch("layer \(index) has no state \(layer.state)") }
        layer.mix = Float(try Self.number(json["mix"], "layers.mix"))
        layer.transitionCompleted = try Self.bool(json["transitionCompleted"], "layers.transitionCompleted")
        layer.waitingForExit = try Self.bool(json["waitingForExit"], "layers.waitingForExit")
        if let clock = json["clock"] {
            guard let animation = states[layer.state].animation, definition.animations.indices.contains(animation) else {
                throw .mismatch("layer \(index)'s state \(layer.state) plays no animation")
            }
            layer.clock = AnimationClock(
                definition.animations[animation], time: Float(try Self.number(clock["time"], "clock.time")),
                totalTime: Float(try Self.number(clock["totalTime"], "clock.totalTime")),
                lastTotalTime: Float(try Self.number(clock["lastTotalTime"], "clock.lastTotalTime")),
                direction: Float(try Self.number(clock["direction"], "clock.direction")),
                keepGoing: try Self.bool(clock["keepGoing"], "clock.keepGoing"))
            if definition.timelines.indices.contains(animation) {
                var timeline = LinearAnimationInstance(definition.timelines[animation])
                timeline.setTime(layer.clock!.time)
                layer.timeline = timeline
            }
        }
        if let transition = json["transition"] {
            let origin = TransitionOrigin(
                state: try Self.int(transition["state"], "transition.state"), index: try Self.int(transition["index"], "transition.index"))
            guard states.indices.contains(origin.state), states[origin.state].transitions.indices.contains(origin.index) else {
                throw .mismatch("layer \(index) has no transition \(origin.index) out of state \(origin.state)")
            }
            layer.transition = states[origin.state].transitions[origin.index]
            layer.transitionOrigin = origin
        }
        if let mixing = json["mixing"] { layer.mixing = try mix(mixing, layer: index) }
        return layer
    }

    private static func json(_ value: PropertyValue) -> JSONValue {
        switch value {
        case .number(let number): return .object([("number", .number(Double(number)))])
        case .string(let text): return .object([("string", .string(text))])
        case .boolean(let flag): return .object([("boolean", .bool(flag))])
        case .color(let color): return .object([("color", .number(Double(color)))])
        default: return .null
        }
    }

    private static func value(_ json: JSONValue?) throws(StateMachinePersistenceError) -> PropertyValue {
        if let number = json?["number"]?.numberValue { return .number(Float(number)) }
        if let text = json?["string"]?.stringValue { return .string(text) }
        if let flag = json?["boolean"]?.boolValue { return .boolean(flag) }
        if let color = json?["color"]?.numberValue, color >= 0, color <= Double(UInt32.max) { return .color(UInt32(color)) }
        throw .invalidMember("components.value")
    }

    static func array(_ json: JSONValue?, _ name: String) throws(StateMachinePersistenceError) -> [JSONValue] {
        guard let array = json?.arrayValue else { throw .invalidMember(name) }
        return array
    }

    static func number(_ json: JSONValue?, _ name: String) throws(StateMachinePersistenceError) -> Double {
        guard let number = json?.numberValue, number.isFinite else { throw .invalidMember(name) }
        return number
    }

    static func int(_ json: JSONValue?, _ name: String) throws(StateMachinePersistenceError) -> Int {
        guard let number = json?.intValue, number >= 0 else { throw .invalidMember(name) }
        return number
    }

    static func bool(_ json: JSONValue?, _ name: String) throws(StateMachinePersistenceError) -> Bool {
        guard let flag = json?.boolValue else { throw .invalidMember(name) }
        return flag
    }
}
