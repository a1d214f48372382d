import RiveSyncJSON
import RiveSyncModel

/// JSON forms of instance states, effects, batches and snapshots (PROTOCOL.md §4, §7).
/// Encoding needs nothing else; decoding needs the file's schema for the property types.
public enum StateCodec {
    public static func encode(_ state: InstanceState) -> JSONValue {
        let values: [(String, JSONValue)] = state.values.keys.sorted().map { ($0, ValueCodec.encode(state.values[$0]!)) }
        return .object([
            ("id", .number(Double(state.id.rawValue))), ("viewModel", .string(state.viewModel)), ("name", .string(state.name)),
            ("values", .object(values)),
        ])
    }

    public static func encode(_ binding: Binding) -> JSONValue {
        .object([
            ("slot", .string(binding.slot.description)),
            ("instance", binding.instance.map { .number(Double($0.rawValue)) } ?? .null),
        ])
    }

    public static func encode(_ effect: Effect) -> JSONValue {
        var m: [(String, JSONValue)] = []
        let paths: (String, JSONValue) = ("paths", .array(effect.paths.map(JSONValue.string)))
        func id(_ id: InstanceID) -> JSONValue { .number(Double(id.rawValue)) }
        func introduced(_ states: [InstanceState]) -> (String, JSONValue) { ("introduced", .array(states.map(encode))) }
        switch effect.change {
        case .set(let instance, let property, let value, let states):
            m = [("op", "set"), paths, ("instance", id(instance)), ("property", .string(property)), ("value", ValueCodec.encode(value))]
            if !states.isEmpty { m.append(introduced(states)) }
        case .fire(let instance, let property):
            m = [("op", "fire"), paths, ("instance", id(instance)), ("property", .string(property))]
        case .listInsert(let instance, let property, let index, let item, let states):
            m = [
                ("op", "listInsert"), paths, ("instance", id(instance)), ("property", .string(property)),
                ("index", .number(Double(index))), ("item", id(item)), introduced(states),
            ]
        case .listRemove(let instance, let property, let index):
            m = [
                ("op", "listRemove"), paths, ("instance", id(instance)), ("property", .string(property)), ("index", .number(Double(index))),
            ]
        case .listSwap(let instance, let property, let index, let with):
            m = [
                ("op", "listSwap"), paths, ("instance", id(instance)), ("property", .string(property)),
                ("index", .number(Double(index))), ("with", .number(Double(with))),
            ]
        case .bind(let slot, let instance, let states):
            m = [("op", "bind"), paths, ("slot", .string(slot.description)), ("instance", id(instance)), introduced(states)]
        }
        if effect.origin == .stateMachine { m.append(("by", "stateMachine")) }
        return .object(m)
    }

    // MARK: Decoding (client side)

    /// Reads an instance state, typing each value by the schema.
    public static func decodeState(_ json: JSONValue, schema: FileSchema) throws(WireError) -> InstanceState {
        let f = Fields(json: json)
        let id = try f.instance("id")
        let viewModelName = try f.string("viewModel")
        guard let viewModel = schema.viewModels.first(where: { $0.name == viewModelName }) else {
            throw WireError(FileError.invalidViewModel(viewModelName))
        }
        guard let members = json["values"]?.objectValue else { throw .badField("values", "an object") }
        var values: [String: PropertyValue] = [:]
        for (name, value) in members {
            guard let property = viewModel.property(named: name) else {
                throw WireError(PropertyError.noSuchProperty(path: name))
            }
            do {
                values[name] = try ValueCodec.decode(value, as: property.type, path: name)
            } catch {
                throw WireError(error)
            }
        }
        return InstanceState(id: id, viewModel: viewModelName, name: try f.string("name"), values: values)
    }

    static func decodeSlot(_ text: String) -> BindingSlot { text == "main" ? .main : .global(text) }

    /// Reads an effect. `instances` tells the view model of each instance the replica holds
    /// (needed to type a `set` value), after the effect's own `introduced` states.
    public static func decodeEffect(
        _ json: JSONValue, schema: FileSchema, viewModelOf: (InstanceID) -> String?
    ) throws(WireError) -> Effect {
        let f = Fields(json: json)
        guard let paths = try f.strings("paths") else { throw .badField("paths", "an array of strings") }
        var introduced: [InstanceState] = []
        if let states = json["introduced"] {
            guard let states = states.arrayValue else { throw .badField("introduced", "an array of instance states") }
            for state in states { introduced.append(try decodeState(state, schema: schema)) }
        }
        let op = try f.string("op")
        let change: Change
        switch op {
        case "set":
            let instance = try f.instance("instance")
            let property = try f.string("property")
            let viewModelName = introduced.first { $0.id == instance }?.viewModel ?? viewModelOf(instance)
            guard let viewModelName,
                let type = schema.viewModels.first(where: { $0.name == viewModelName })?.property(named: property)?.type
            else { throw WireError(PropertyError.noSuchProperty(path: property)) }
            let value: PropertyValue
            do {
                value = try ValueCodec.decode(try f.value("value"), as: type, path: property)
            } catch {
                throw WireError(error)
            }
            change = .set(instance: instance, property: property, value: value, introduced: introduced)
        case "fire":
            change = .fire(instance: try f.instance("instance"), property: try f.string("property"))
        case "listInsert":
            change = .listInsert(
                instance: try f.instance("instance"), property: try f.string("property"), index: try f.int("index"),
                item: try f.instance("item"), introduced: introduced)
        case "listRemove":
            change = .listRemove(instance: try f.instance("instance"), property: try f.string("property"), index: try f.int("index"))
        case "listSwap":
            change = .listSwap(
                instance: try f.instance("instance"), property: try f.string("property"), index: try f.int("index"), with: try f.int("with")
            )
        case "bind":
            change = .bind(slot: decodeSlot(try f.string("slot")), instance: try f.instance("instance"), introduced: introduced)
        default:
            throw .badField("op", "a known effect op")
        }
        let origin: EffectOrigin
        switch try f.optionalString("by") {
        case nil: origin = .command
        case "stateMachine": origin = .stateMachine
        default: throw .badField("by", "\"stateMachine\" or absent")
        }
        return Effect(paths: paths, change: change, origin: origin)
    }

    /// Reads the bindings of a snapshot.
    public static func decodeBindings(_ json: JSONValue?) throws(WireError) -> [Binding] {
        guard let items = json?.arrayValue else { throw .badField("bindings", "an array") }
        var bindings: [Binding] = []
        for item in items {
            let f = Fields(json: item)
            bindings.append(Binding(slot: decodeSlot(try f.string("slot")), instance: try f.optionalInstance("instance")))
        }
        return bindings
    }
}
