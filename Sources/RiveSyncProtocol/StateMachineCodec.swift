import RiveSyncJSON
import RiveSyncModel

/// JSON forms of what a running state machine reports (PROTOCOL.md §19): layer states, Rive
/// events, and a batch's `elapsed`, `events`, `layers` and `settled` members, each present
/// only when it says something (a batch of a settled target that ran no time has none).
enum StateMachineCodec {
    /// A layer's current state: `{"layer", "name", "state", "kind", "animation"?}`.
    static func encode(_ layer: LayerState) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("layer", .number(Double(layer.layer))), ("name", .string(layer.layerName)), ("state", .number(Double(layer.state))),
            ("kind", .string(layer.kind.rawValue)),
        ]
        if let animation = layer.animation { members.append(("animation", .string(animation))) }
        return .object(members)
    }

    /// A reported event: `{"name", "delay", "properties"?}` (properties by name, in file order).
    static func encode(_ event: ReportedEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(event.name)), ("delay", .number(Double(event.delay)))]
        if !event.properties.isEmpty {
            members.append(("properties", .object(event.properties.map { ($0.name, ValueCodec.encode($0.value)) })))
        }
        return .object(members)
    }

    /// The state machine members of a batch, after its `authors`.
    static func members(of batch: ServerMessage.Batch) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if batch.elapsed > 0 { members.append(("elapsed", .number(batch.elapsed))) }
        if !batch.events.isEmpty { members.append(("events", .array(batch.events.map(encode)))) }
        if !batch.layers.isEmpty { members.append(("layers", .array(batch.layers.map(encode)))) }
        if !batch.settled { members.append(("settled", .bool(false))) }
        return members
    }

    /// Reads a batch's state machine members (each absent member is its default).
    static func read(_ r: ServerMessageReader, into batch: inout ServerMessage.Batch) throws(ServerMessageDecodingError) {
        if r.json["elapsed"] != nil {
            let elapsed = try r.number("elapsed")
            guard elapsed.isFinite, elapsed >= 0 else { throw r.failure("elapsed", "expected a finite number of seconds ≥ 0") }
            batch.elapsed = elapsed
        }
        if r.json["events"] != nil { batch.events = try r.items("events", event) }
        if r.json["layers"] != nil { batch.layers = try r.items("layers", layer) }
        batch.settled = try r.optionalBool("settled") ?? true
    }

    static func layer(_ r: ServerMessageReader) throws(ServerMessageDecodingError) -> LayerState {
        let kindName = try r.string("kind")
        guard let kind = LayerState.Kind(rawValue: kindName) else { throw r.failure("kind", "'\(kindName)' is not a layer state kind") }
        let index = try r.int("layer")
        let state = try r.int("state")
        guard index >= 0 else { throw r.failure("layer", "expected a non-negative integer") }
        guard state >= 0 else { throw r.failure("state", "expected a non-negative integer") }
        return LayerState(
            layer: index, layerName: try r.string("name"), state: state, kind: kind, animation: try r.optionalString("animation"))
    }

    /// A legacy input: `{"name", "type", "value"?}` (`value` a number or boolean, absent for a
    /// trigger).
    static func encode(_ input: StateMachineInputState) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(input.name)), ("type", .string(input.kind.rawValue))]
        switch input.value {
        case .number(let number)?: members.append(("value", .number(Double(number))))
        case .boolean(let flag)?: members.append(("value", .bool(flag)))
        default: break
        }
        return .object(members)
    }

    static func input(_ r: ServerMessageReader) throws(ServerMessageDecodingError) -> StateMachineInputState {
        let kind = try r.choice("type", StateMachineInputState.Kind.self)
        let value: PropertyValue?
        switch kind {
        case .number: value = .number(Float(try r.number("value")))
        case .boolean: value = .boolean(try r.bool("value"))
        case .trigger: value = nil
        }
        return StateMachineInputState(name: try r.string("name"), kind: kind, value: value)
    }

    static func event(_ r: ServerMessageReader) throws(ServerMessageDecodingError) -> ReportedEvent {
        var properties: [ReportedEvent.Property] = []
        if r.json["properties"] != nil {
            for (name, value) in try r.object("properties") {
                properties.append(ReportedEvent.Property(name: name, value: try eventValue(value, r: r, name: name)))
            }
        }
        return ReportedEvent(name: try r.string("name"), delay: Float(try r.number("delay")), properties: properties)
    }

    /// A custom property of an event: Rive's are numbers, strings and booleans.
    private static func eventValue(_ json: JSONValue, r: ServerMessageReader, name: String) throws(ServerMessageDecodingError)
        -> PropertyValue
    {
        if let number = json.numberValue { return .number(Float(number)) }
        if let text = json.stringValue { return .string(text) }
        if let flag = json.boolValue { return .boolean(flag) }
        throw r.failure("properties.\(name)", "expected a number, a string or a boolean")
    }
}

extension ServerMessage.Batch {
    /// Copies a stored batch message's state machine members (`elapsed`, `events`, `layers`,
    /// `settled`) into `batch` (a journal snapshot's history keeps batches as sent).
    public static func stateMachineMembers(in json: JSONValue, into batch: inout ChangeBatch) throws(WireError) {
        var read = ServerMessage.Batch(target: batch.target, epoch: "", seq: batch.seq, effects: [], commands: [])
        do { try StateMachineCodec.read(ServerMessageReader(json, type: .batch), into: &read) } catch {
            throw WireError(code: .badMessage, message: error.description)
        }
        batch.elapsed = read.elapsed
        batch.events = read.events
        batch.layers = read.layers
        batch.settled = read.settled
    }
}
