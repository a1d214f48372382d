import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol

/// Self-describing JSON for what the journal stores: commands with tagged values (no schema
/// needed to read them back) and a file runtime's persistent state.
public enum JournalCodec {
    /// A journal document that does not read back: what is wrong, for the refusal to start.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    public static func encode(_ value: PropertyValue) -> JSONValue {
        func id(_ id: InstanceID?) -> JSONValue { id.map { .number(Double($0.rawValue)) } ?? .null }
        switch value {
        case .number(let n): return ["number": .number(Double(n))]
        case .string(let s): return ["string": .string(s)]
        case .boolean(let b): return ["boolean": .bool(b)]
        case .color(let c): return ["color": .number(Double(c))]
        case .enumValue(let e): return ["enum": .string(e)]
        case .trigger(let count): return ["trigger": .number(Double(count))]
        case .viewModel(let nested): return ["viewModel": id(nested)]
        case .list(let items): return ["list": .array(items.map { id($0) })]
        case .asset: return ["asset": ValueCodec.encode(value)]
        case .artboard(let name): return ["artboard": name.map(JSONValue.string) ?? .null]
        case .symbolListIndex(let index): return ["symbolListIndex": .number(Double(index))]
        }
    }

    public static func decodeValue(_ json: JSONValue) throws -> PropertyValue {
        guard let (tag, payload) = json.objectValue?.first else { throw Invalid(description: "value \(json.jsonText)") }
        let type: DataType
        switch tag {
        case "number": type = .number
        case "string": type = .string
        case "boolean": type = .boolean
        case "color": type = .color
        case "enum": type = .enum
        case "trigger": type = .trigger
        case "viewModel": return .viewModel(payload.intValue.map { InstanceID(UInt64($0)) })
        case "list": type = .list
        case "asset": type = .assetBlob
        case "artboard": type = .artboard
        case "symbolListIndex": type = .symbolListIndex
        default: throw Invalid(description: "value tag \(tag)")
        }
        return try ValueCodec.decode(payload, as: type, path: "journal")
    }

    public static func encode(_ command: Command) -> JSONValue {
        func id(_ id: InstanceID) -> JSONValue { .number(Double(id.rawValue)) }
        switch command {
        case .set(let path, let value): return ["op": "set", "path": .string(path), "value": encode(value)]
        case .fire(let path): return ["op": "fire", "path": .string(path)]
        case .listAppend(let path, let instance): return ["op": "listAppend", "path": .string(path), "instance": id(instance)]
        case .listInsert(let path, let index, let instance):
            return ["op": "listInsert", "path": .string(path), "index": .number(Double(index)), "instance": id(instance)]
        case .listRemoveAt(let path, let index): return ["op": "listRemoveAt", "path": .string(path), "index": .number(Double(index))]
        case .listRemove(let path, let instance): return ["op": "listRemove", "path": .string(path), "instance": id(instance)]
        case .listSwap(let path, let index, let with):
            return ["op": "listSwap", "path": .string(path), "index": .number(Double(index)), "with": .number(Double(with))]
        case .bind(let bindings): return ["op": "bind", "bindings": .array(bindings.map(StateCodec.encode))]
        case .setInput(let name, let value): return ["op": "setInput", "name": .string(name), "value": encode(value)]
        case .fireInput(let name): return ["op": "fireInput", "name": .string(name)]
        case .setBindTarget(let bind, let value): return ["op": "setBindTarget", "bind": .number(Double(bind)), "value": encode(value)]
        }
    }

    public static func decodeCommand(_ json: JSONValue) throws -> Command {
        let fields = Fields(json: json, what: "command")
        let op = try fields.string("op")
        switch op {
        case "bind": return .bind(try StateCodec.decodeBindings(try fields.value("bindings")))
        case "setInput": return .setInput(name: try fields.string("name"), value: try decodeValue(try fields.value("value")))
        case "fireInput": return .fireInput(name: try fields.string("name"))
        case "setBindTarget": return .setBindTarget(bind: try fields.int("bind"), value: try decodeValue(try fields.value("value")))
        default: break
        }
        let path = try fields.string("path")
        switch op {
        case "set": return .set(path: path, value: try decodeValue(try fields.value("value")))
        case "fire": return .fire(path: path)
        case "listAppend": return .listAppend(path: path, instance: try fields.instance("instance"))
        case "listInsert": return .listInsert(path: path, index: try fields.int("index"), instance: try fields.instance("instance"))
        case "listRemoveAt": return .listRemoveAt(path: path, index: try fields.int("index"))
        case "listRemove": return .listRemove(path: path, instance: try fields.instance("instance"))
        case "listSwap": return .listSwap(path: path, index: try fields.int("index"), with: try fields.int("with"))
        default: throw Invalid(description: "command op '\(op)'")
        }
    }

    public static func encode(_ state: FileRuntimeState) -> JSONValue {
        .object([
            ("nextInstanceID", .number(Double(state.nextInstanceID))),
            ("instances", .array(state.instances.map(StateCodec.encode))),
            (
                "targets",
                .array(
                    state.targets.map { target in
                        var members: [(String, JSONValue)] = [("name", .string(target.name))]
                        switch target.kind {
                        case .stateMachine(let artboard, let stateMachine):
                            members += [("artboard", .string(artboard)), ("stateMachine", .string(stateMachine))]
                        case .publishedInstance:
                            break
                        }
                        members += [("bindings", .array(target.bindings.map(StateCodec.encode))), ("seq", .number(Double(target.seq)))]
                        if target.generation > 0 { members.append(("generation", .number(Double(target.generation)))) }
                        // The running state machine's own state (its codec is the evaluator's).
                        if let machine = target.stateMachine { members.append(("machineState", machine)) }
                        return .object(members)
                    })
            ),
            ("retiredTargets", .object(state.retiredTargets.keys.sorted().map { ($0, .number(Double(state.retiredTargets[$0]!))) })),
        ])
    }

    public static func decodeState(_ json: JSONValue, schema: FileSchema) throws -> FileRuntimeState {
        let fields = Fields(json: json, what: "state")
        let instances = try fields.array("instances").map { try StateCodec.decodeState($0, schema: schema) }
        var targets: [FileRuntimeState.TargetState] = []
        for target in try fields.array("targets") {
            let item = Fields(json: target, what: "target")
            let kind: TargetKind =
                target["artboard"] == nil
                ? .publishedInstance : .stateMachine(artboard: try item.string("artboard"), stateMachine: try item.string("stateMachine"))
            let seq = try item.int("seq")
            // `generation` is written only when it is not 0.
            let generation = target["generation"] == nil ? 0 : try item.int("generation")
            guard seq >= 0, generation >= 0 else { throw Invalid(description: "target \(target.jsonText)") }
            // `machineState` is written only for a target that runs a state machine (snapshots
            // written before the state machine ran have none).
            let machine = target["machineState"]
            if let machine, machine.objectValue == nil { throw Invalid(description: "target \(target.jsonText): machineState") }
            targets.append(
                FileRuntimeState.TargetState(
                    name: try item.string("name"), kind: kind, bindings: try StateCodec.decodeBindings(try item.value("bindings")),
                    seq: UInt64(seq), generation: generation, stateMachine: machine))
        }
        var retired: [String: Int] = [:]
        guard let retiredTargets = try fields.value("retiredTargets").objectValue else { throw Invalid(description: "retiredTargets") }
        for (name, generation) in retiredTargets {
            guard let generation = generation.intValue else { throw Invalid(description: "retiredTargets.\(name)") }
            retired[name] = generation
        }
        let next = try fields.int("nextInstanceID")
        guard next > 0 else { throw Invalid(description: "nextInstanceID \(next)") }
        return FileRuntimeState(nextInstanceID: UInt64(next), instances: instances, targets: targets, retiredTargets: retired)
    }
}
