import Foundation
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncTestSupport
import StateMachineTraceSupport

/// Replays a `StateMachineTrace` through a real `rivesyncd` over the protocol, as a client
/// would: loads nothing itself (the daemon's configuration loads the `.riv`), creates the
/// instance (none when the trace has no view model), binds it to a manual state machine target
/// (made unbound, advanced, then bound when Rive advanced before binding), queues the writes,
/// fires, list edits, input changes and data-bind target writes (`setBindTarget`) of each
/// step, advances with the trace's seconds, and
/// after every advance compares what a
/// subscriber's replica holds (values, the state machine's trigger fires, events, and each
/// layer's state from `listTargets`) with what Rive's runtime recorded.
final class StateMachineTraceRunner: @unchecked Sendable {
    static let file = "traced"
    static let target = "traced"

    let trace: StateMachineTrace
    let client: TestClient
    let schema: FileSchema
    private var replica: Replica?
    /// Requests sent and not answered yet (commands wait for the advance), by id.
    private var waiting: [Int: String] = [:]
    private var nextID = 0
    /// Every difference from the trace, in order.
    private(set) var mismatches: [String] = []
    /// Instances made for list items the trace adds without a view model (Rive's item holds
    /// none; a client's always holds one): such an item reads `null` in the trace.
    private var standIns: Set<Int> = []

    init(trace: StateMachineTrace, daemon: DaemonProcess) async throws {
        self.trace = trace
        client = try await TestClient.connected(to: daemon)
        let described = try await client.request(["type": "describe", "file": .string(Self.file)])
        schema = try FileSchema(json: described["schema"] ?? .null)
    }

    /// The configuration of a daemon that loads the trace's file (and nothing else).
    static func configuration(for trace: StateMachineTrace) -> JSONValue {
        ["files": [["name": .string(file), "path": .string(trace.rivPath)]], "auth": ["allowAnonymous": "loopback"]]
    }

    struct Refused: Error, CustomStringConvertible {
        var what: String
        var reply: JSONValue
        var description: String { "\(what) was refused: \(reply.jsonText)" }
    }

    // MARK: Running

    /// Runs the whole trace; the differences are in `mismatches` (a refused request throws).
    func run() async throws {
        var main: JSONValue = .null
        if let viewModel = trace.header["viewModel"]?.stringValue {
            let created = try await checked(
                ["type": "createInstance", "file": .string(Self.file), "source": source(trace.script["instance"], viewModel: viewModel)],
                "createInstance")
            main = created["instance"] ?? .null
        }
        if !trace.beforeBind.isEmpty { try await writeBeforeBinding(main) }
        let early = trace.advanceBeforeBind
        var machine: [(String, JSONValue)] = [
            ("type", "createStateMachine"), ("file", .string(Self.file)), ("name", .string(Self.target)), ("mode", "manual"),
        ]
        machine.append(early == nil ? ("main", main) : ("bindDefaults", false))
        if let artboard = trace.header["artboard"] { machine.append(("artboard", artboard)) }
        if let stateMachine = trace.header["stateMachine"] { machine.append(("stateMachine", stateMachine)) }
        _ = try await checked(.object(machine), "createStateMachine")
        let snapshot = try await checked(["type": "subscribe", "target": .string(Self.target)], "subscribe")
        replica = Replica(snapshot: try StateCodec.decodeSnapshot(snapshot, target: Self.target, schema: schema))
        if let early {
            // Rive advanced before binding: the bind applies at the initial advance.
            for seconds in early { _ = try await advance(seconds) }
            if !main.isNull { send(["type": "bind", "target": .string(Self.target), "main": main], "bind") }
        }
        // Deleted once the state machine holds the instance (deleting frees what only it held).
        if !trace.beforeBind.isEmpty { _ = try await checked(["type": "deleteTarget", "target": "unbound"], "deleteTarget") }

        var states = trace.states[...]
        try await compare(try await advance(trace.initialAdvance), with: states.popFirst(), step: -1)
        for (index, step) in trace.steps.enumerated() {
            if let seconds = step["advance"]?.numberValue {
                try await compare(try await advance(seconds), with: states.popFirst(), step: index)
            } else if let until = step["advanceUntilSettled"] {
                // One state line per advance, until Rive's state machine settled.
                var settled = false
                while states.first?["step"]?.intValue == index {
                    let advanced = try await advance(until["dt"]?.numberValue ?? 0.016)
                    settled = advanced.settled
                    try await compare(advanced, with: states.popFirst(), step: index)
                }
                if !settled { mismatches.append("step \(index): not settled after the advances that settled Rive's state machine") }
            } else {
                try await queue(step, on: Self.target)
            }
        }
        if let extra = states.first { mismatches.append("the trace has a state line no step made: \(extra.jsonText.prefix(200))") }
    }

    /// The `beforeBind` steps: written through the instance published as a target of its own,
    /// before the state machine target binds it.
    private func writeBeforeBinding(_ instance: JSONValue) async throws {
        _ = try await checked(["type": "publish", "instance": instance, "name": "unbound"], "publish")
        for step in trace.beforeBind { try await queue(step, on: "unbound") }
        try await answers(of: waiting.keys.sorted())
    }

    /// What one advance showed a subscriber.
    struct Advanced {
        var settled: Bool
        var batches: [JSONValue]
    }

    private func advance(_ seconds: Double) async throws -> Advanced {
        let reply = try await checked(["type": "advance", "target": .string(Self.target), "elapsed": .number(seconds)], "advance")
        // The acks and errors of the queued commands, and the batch, came before the reply.
        try await answers(of: waiting.keys.sorted())
        let batches = client.takeAll { $0["type"] == "batch" && $0["target"]?.stringValue == Self.target }
        for batch in batches { try replica!.apply(try StateCodec.decodeBatch(batch, schema: schema, replica: replica!)) }
        return Advanced(settled: reply["settled"]?.boolValue ?? true, batches: batches)
    }

    /// Waits for the answers of queued commands: each must be an ack, but for a list edit at an
    /// index out of range (Rive ignores it; the daemon says so).
    private func answers(of ids: [Int]) async throws {
        for id in ids {
            let what = waiting.removeValue(forKey: id) ?? "a command"
            let reply = try await client.next(where: { $0["id"]?.intValue == id }, what: "the answer to \(what)")
            if reply["type"] == "error", reply["code"] == "index_out_of_range", what.hasPrefix("list") { continue }
            guard reply["type"] == "ack" else { throw Refused(what: what, reply: reply) }
        }
    }

    // MARK: Steps

    /// Queues a step's writes, fires and list edits on `target` (answered at its next advance).
    private func queue(_ step: JSONValue, on target: String) async throws {
        if let set = step["set"], let path = set["path"]?.stringValue {
            send(["type": "set", "target": .string(target), "path": .string(path), "value": value(set["value"], at: path)], "set \(path)")
        } else if let path = step["fire"]?.stringValue {
            send(["type": "fire", "target": .string(target), "path": .string(path)], "fire \(path)")
        } else if let list = step["list"], let path = list["path"]?.stringValue {
            try await edit(list, path: path, on: target)
        } else if let replace = step["replace"], let path = replace["path"]?.stringValue {
            let instance = try await newInstance(replace, on: target)
            send(["type": "set", "target": .string(target), "path": .string(path), "value": ["instance": instance]], "replace \(path)")
        } else if let setTarget = step["setTarget"], let bind = setTarget["bind"], let value = setTarget["value"] {
            send(["type": "setBindTarget", "target": .string(target), "bind": bind, "value": value], "setBindTarget \(bind.jsonText)")
        } else if let input = step["input"], let name = input["name"] {
            if let value = input["value"] {
                send(["type": "setInput", "target": .string(target), "name": name, "value": value], "setInput \(name.jsonText)")
            } else {
                send(["type": "fireInput", "target": .string(target), "name": name], "fireInput \(name.jsonText)")
            }
        } else {
            throw StateMachineTrace.Malformed(trace: trace.name, reason: "a step the runner does not know: \(step.jsonText)")
        }
    }

    private func edit(_ list: JSONValue, path: String, on target: String) async throws {
        let base: [(String, JSONValue)] = [("target", .string(target)), ("path", .string(path))]
        switch list["op"]?.stringValue {
        case "add":
            let instance = try await newInstance(list, on: target)
            send(.object([("type", "listAppend")] + base + [("instance", instance)]), "listAppend \(path)")
        case "insert":
            let instance = try await newInstance(list, on: target)
            send(.object([("type", "listInsert")] + base + [("index", list["index"] ?? 0), ("instance", instance)]), "listInsert \(path)")
        case "remove":
            send(.object([("type", "listRemoveAt")] + base + [("index", list["index"] ?? 0)]), "listRemoveAt \(path)")
        case "swap":
            send(
                .object([("type", "listSwap")] + base + [("index", list["index"] ?? 0), ("with", list["index2"] ?? 0)]), "listSwap \(path)")
        default:
            throw StateMachineTrace.Malformed(trace: trace.name, reason: "a list op the runner does not know: \(list.jsonText)")
        }
    }

    /// A new instance of a step's `viewModel`, with its `set` values queued on `target`. A list
    /// item whose view model the trace does not name (its values are not compared, only the
    /// list's length) is one of the main view model.
    private func newInstance(_ spec: JSONValue, on target: String) async throws -> JSONValue {
        let viewModel = spec["viewModel"]?.stringValue ?? trace.header["viewModel"]?.stringValue ?? ""
        let created = try await checked(
            ["type": "createInstance", "file": .string(Self.file), "source": source(spec["instance"], viewModel: viewModel)],
            "createInstance of \(viewModel)")
        let instance = created["instance"] ?? .null
        if spec["viewModel"] == nil, let id = instance.intValue { standIns.insert(id) }
        for (name, value) in spec["set"]?.objectValue ?? [] {
            let path = "#\(instance.intValue ?? 0)/" + name
            send(["type": "set", "target": .string(target), "path": .string(path), "value": self.value(value, at: name)], "set \(path)")
        }
        return instance
    }

    /// The instance source of a trace's `instance`: "default", "blank", {"name"} or {"index"}.
    private func source(_ spec: JSONValue?, viewModel: String) -> JSONValue {
        switch spec {
        case .some(.string("blank")): return ["blank": ["viewModel": .string(viewModel)]]
        case .some(let object) where object["name"] != nil:
            return ["name": object["name"]!, "viewModel": .string(viewModel)]
        case .some(let object) where object["index"] != nil:
            return ["index": object["index"]!, "viewModel": .string(viewModel)]
        default: return ["default": ["viewModel": .string(viewModel)]]
        }
    }

    /// A step's value on the wire: enums given `{"index": i}` by the header's `enumValues`.
    private func value(_ value: JSONValue?, at path: String) -> JSONValue {
        guard let index = value?["index"]?.intValue else { return value ?? .null }
        let names = trace.header["enumValues"]?[path]?.arrayValue ?? []
        return names.indices.contains(index) ? names[index] : .null
    }

    private func send(_ message: JSONValue, _ what: String) {
        nextID += 1
        guard case .object(let members) = message else { return }
        waiting[nextID] = what
        client.send(.object(members + [("id", .number(Double(nextID)))]))
    }

    private func checked(_ message: JSONValue, _ what: String) async throws -> JSONValue {
        let reply = try await client.request(message)
        guard reply["type"] != "error" else { throw Refused(what: what, reply: reply) }
        return reply
    }

    // MARK: Comparing

    private func compare(_ advanced: Advanced, with state: JSONValue?, step: Int) async throws {
        guard let state else { return mismatches.append("step \(step): the trace has no state line for this advance") }
        let here = "step \(step) (t=\(state["time"]?.numberValue ?? 0))"
        guard state["step"]?.intValue == step else {
            return mismatches.append("\(here): the trace's next state line is of step \(state["step"]?.jsonText ?? "?")")
        }
        let types = trace.header["schema"]?.objectValue ?? []
        compareValues(
            state["vm"], notified: state["notified"], types: Dictionary(types, uniquingKeysWith: { a, _ in a }), prefix: "", advanced, here)
        for (global, expected) in state["globals"]?.objectValue ?? [] {
            let types = trace.header["globals"]?[global]?.objectValue ?? []
            compareValues(
                expected["vm"], notified: expected["notified"], types: Dictionary(types, uniquingKeysWith: { a, _ in a }),
                prefix: "@" + global + "/", advanced, here)
        }
        let events = advanced.batches.flatMap { $0["events"]?.arrayValue ?? [] }.map { $0["name"]?.stringValue ?? "?" }
        let expectedEvents = (state["events"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "?" }
        if events != expectedEvents { mismatches.append("\(here): events \(events), Rive reported \(expectedEvents)") }
        try await compareLayers(state["layers"]?.arrayValue ?? [], here)
    }

    private func compareValues(
        _ values: JSONValue?, notified: JSONValue?, types: [String: JSONValue], prefix: String, _ advanced: Advanced, _ here: String
    ) {
        for (path, expected) in values?.objectValue ?? [] {
            let type = types[path]?.stringValue ?? inferredType(prefix + path)
            if type == "trigger" {
                let fired = Self.stateMachineFires(at: prefix + path, in: advanced.batches)
                let rive = notified?[path]?.intValue ?? 0
                if fired != rive { mismatches.append("\(here): \(prefix + path) fired \(fired) times by the state machine, Rive \(rive)") }
                continue
            }
            if let difference = compare(prefix + path, type: type, expected: expected) { mismatches.append("\(here): \(difference)") }
        }
    }

    /// The state machine's `fire` effects at `path` in the batches.
    static func stateMachineFires(at path: String, in batches: [JSONValue]) -> Int {
        let effects: [JSONValue] = batches.flatMap { $0["effects"]?.arrayValue ?? [] }
        return effects.filter { (effect: JSONValue) -> Bool in
            guard effect["op"] == "fire", effect["by"] == "stateMachine" else { return false }
            let paths: [JSONValue] = effect["paths"]?.arrayValue ?? []
            return paths.contains(.string(path))
        }.count
    }

    /// The type of a path the header's schema does not type (a list item added later): an
    /// item when it ends at an index, else its value's type in the replica.
    private func inferredType(_ path: String) -> String {
        if Int(path.split(separator: "/").last.map(String.init) ?? "") != nil { return "item" }
        return (try? replica?.resolve(path, schema: schema).value.kindName) ?? ""
    }

    /// nil when the replica's value at `path` is the trace's (numbers within 1e-3).
    private func compare(_ path: String, type: String, expected: JSONValue) -> String? {
        guard let replica else { return "no replica" }
        let store = replica.store
        func viewModelName(_ id: InstanceID?) -> String? { id.flatMap { store[$0]?.viewModel } }
        let actual: PropertyValue
        var itemIndex: Int?
        var listPath = path
        if type == "item", let slash = path.lastIndex(of: "/"), let index = Int(path[path.index(after: slash)...]) {
            listPath = String(path[..<slash])
            itemIndex = index
        }
        do { actual = try replica.resolve(listPath, schema: schema).value } catch { return "\(path): \(error)" }
        let matches: Bool
        switch (type, actual) {
        case ("number", .number(let n)):
            matches = expected.numberValue.map { abs(Double(n) - $0) <= 1e-3 } ?? false
        case ("string", .string(let s)): matches = expected.stringValue == s
        case ("boolean", .boolean(let b)): matches = expected.boolValue == b
        case ("color", .color(let c)): matches = expected.stringValue?.uppercased() == ColorText.format(c)
        case ("enum", .enumValue(let e)): matches = expected.stringValue == e
        case ("list", .list(let items)): matches = expected.intValue == items.count
        case ("item", .list(let items)):
            matches =
                itemIndex.map { index in
                    guard items.indices.contains(index) else { return false }
                    if expected.isNull { return standIns.contains(Int(items[index].rawValue)) }
                    return expected.stringValue == viewModelName(items[index])
                } ?? false
        case ("viewModel", .viewModel(let nested)): matches = expected.stringValue == viewModelName(nested)
        case (_, .asset(let reference)): matches = (expected.intValue == 4_294_967_295) == (reference == nil)
        case (_, .artboard(let name)): matches = (expected.intValue == 4_294_967_295) == (name == nil)
        default: return "\(path): a \(type) in the trace, \(actual) in the daemon"
        }
        return matches ? nil : "\(path) is \(ValueCodec.encode(actual).jsonText), Rive \(expected.jsonText)"
    }

    /// Each layer's current state as `listTargets` shows it against the trace's.
    private func compareLayers(_ expected: [JSONValue], _ here: String) async throws {
        let listed = try await checked(["type": "listTargets"], "listTargets")
        let target = listed["targets"]?.arrayValue?.first { $0["name"]?.stringValue == Self.target }
        let layers = target?["layers"]?.arrayValue ?? []
        let actual = layers.map { "\($0["name"]?.stringValue ?? "?"): \($0["state"]?.intValue ?? -1)" }
        let rive = expected.map { "\($0["layer"]?.stringValue ?? "?"): \($0["state"]?["index"]?.intValue ?? -1)" }
        if actual != rive { mismatches.append("\(here): layers \(actual), Rive \(rive)") }
    }
}
