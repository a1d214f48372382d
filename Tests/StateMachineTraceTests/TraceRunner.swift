import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import StateMachineTraceSupport

/// Replays a `StateMachineTrace` in-process: `RiveFileReader` reads the `.riv`, a
/// `FileRuntime` creates the instance, applies `beforeBind` steps, makes the state machine
/// target (which binds main and globals; when the script advances before binding, main is
/// bound by a command after those advances), advances by the initial time, then queues each
/// step's writes and advances by each step's seconds. After every advance it compares what a
/// replica applying the batches holds (so the batches must carry everything the state machine
/// did) with what Rive's runtime recorded.
struct TraceRunner {
    static let target = "traced"

    let trace: StateMachineTrace
    var runtime: FileRuntime
    var replica: Replica?
    /// Every difference from the trace, in order.
    private(set) var mismatches: [String] = []
    private var nextCommand: UInt64 = 1
    /// How many data binds the trace's artboard has of its own (the rest are nested artboards').
    private var ownBinds = 0

    /// The value on every data bind's target after each advance (`dataBindTargetValues`).
    private(set) var bindTargets: [[PropertyValue?]] = []

    init(trace: StateMachineTrace) throws {
        self.trace = trace
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: trace.rivPath)))
        runtime = FileRuntime(schema: try RiveFileReader.read(bytes))
    }

    /// Replays the trace on another schema (the `.riv` file's state machine described in the
    /// JSON schema format).
    init(trace: StateMachineTrace, schema: FileSchema) {
        self.trace = trace
        runtime = FileRuntime(schema: schema)
    }

    // MARK: Running

    mutating func run() throws {
        ownBinds = try TraceBindOrderTests.ourBinds(trace).count
        let viewModel = trace.header["viewModel"]?.stringValue
        var main: InstanceID?
        if let viewModel {
            main = try runtime.createInstance(source(trace.script["instance"], viewModel: viewModel))
        }
        if let main, !trace.beforeBind.isEmpty {
            try runtime.publish(main, as: "unbound")
            for step in trace.beforeBind { try queue(step, on: "unbound") }
            _ = try runtime.advance("unbound")
        }
        if let early = trace.advanceBeforeBind {
            // Rive advances a state machine with nothing bound, then binds: made unbound,
            // advanced, then bound by a bind command that applies at the initial advance.
            try runtime.createStateMachine(
                named: Self.target, artboard: trace.header["artboard"]?.stringValue,
                stateMachine: trace.header["stateMachine"]?.stringValue, bindDefaults: false)
            replica = Replica(snapshot: try runtime.snapshot(of: Self.target))
            for seconds in early { _ = try advance(seconds) }
            if let main { try enqueue(.bind([Binding(slot: .main, instance: main)]), on: Self.target) }
        } else {
            try runtime.createStateMachine(
                named: Self.target, artboard: trace.header["artboard"]?.stringValue,
                stateMachine: trace.header["stateMachine"]?.stringValue, main: main)
            replica = Replica(snapshot: try runtime.snapshot(of: Self.target))
        }
        if !trace.beforeBind.isEmpty { _ = try runtime.removeTarget("unbound") }

        var states = trace.states[...]
        compare(try advance(trace.initialAdvance), with: states.popFirst(), step: -1)
        for (index, step) in trace.steps.enumerated() {
            if let seconds = step["advance"]?.numberValue {
                compare(try advance(seconds), with: states.popFirst(), step: index)
            } else if let until = step["advanceUntilSettled"] {
                var settled = false
                while states.first?["step"]?.intValue == index {
                    let batches = try advance(until["dt"]?.numberValue ?? 0.016)
                    settled = runtime.isSettled(Self.target)
                    compare(batches, with: states.popFirst(), step: index)
                }
                if !settled { mismatches.append("step \(index): not settled after the advances that settled Rive's state machine") }
            } else {
                try queue(step, on: Self.target)
            }
        }
        if let extra = states.first { mismatches.append("the trace has a state line no step made: \(extra.jsonText.prefix(200))") }
    }

    private mutating func advance(_ seconds: Double) throws -> [ChangeBatch] {
        let batches = try runtime.advance(Self.target, elapsed: seconds).filter { $0.target == Self.target }
        bindTargets.append(try runtime.dataBindTargetValues(Self.target))
        for batch in batches { try replica!.apply(batch) }
        for batch in batches {
            for rejected in batch.rejected where !isIgnorable(rejected.error) {
                mismatches.append("a command was rejected: \(rejected.error)")
            }
        }
        return batches
    }

    /// A list edit at an index out of range: Rive ignores it, the runtime rejects it.
    private func isIgnorable(_ error: PropertyError) -> Bool {
        if case .indexOutOfRange = error { return true }
        return false
    }

    // MARK: Steps

    private mutating func queue(_ step: JSONValue, on target: String) throws {
        if let set = step["set"], let path = set["path"]?.stringValue {
            try enqueue(.set(path: path, value: try value(set["value"], at: path, on: target)), on: target)
        } else if let path = step["fire"]?.stringValue {
            try enqueue(.fire(path: path), on: target)
        } else if let list = step["list"], let path = list["path"]?.stringValue {
            switch list["op"]?.stringValue {
            case "add": try enqueue(.listAppend(path: path, instance: try newInstance(list, on: target)), on: target)
            case "insert":
                let instance = try newInstance(list, on: target)
                try enqueue(.listInsert(path: path, index: list["index"]?.intValue ?? 0, instance: instance), on: target)
            case "remove": try enqueue(.listRemoveAt(path: path, index: list["index"]?.intValue ?? 0), on: target)
            case "swap":
                try enqueue(.listSwap(path: path, index: list["index"]?.intValue ?? 0, with: list["index2"]?.intValue ?? 0), on: target)
            default: throw StateMachineTrace.Malformed(trace: trace.name, reason: "a list op: \(list.jsonText)")
            }
        } else if let replace = step["replace"], let path = replace["path"]?.stringValue {
            try enqueue(.set(path: path, value: .viewModel(try newInstance(replace, on: target))), on: target)
        } else if let setTarget = step["setTarget"], let bind = setTarget["bind"]?.intValue {
            // As a client's `setBindTarget`: queued, its value read as the bound property's type.
            let value = try literal(setTarget["value"], as: try runtime.dataBindTargetType(target, bind: bind))
            try enqueue(.setBindTarget(bind: bind, value: value), on: target)
        } else if let input = step["input"], let name = input["name"]?.stringValue {
            try runtime.setStateMachineInput(target, name: name, value: try input["value"].map(literal))
        } else {
            throw StateMachineTrace.Malformed(trace: trace.name, reason: "a step the runner does not know: \(step.jsonText)")
        }
    }

    private mutating func enqueue(_ command: Command, on target: String) throws {
        try runtime.enqueue(QueuedCommand(id: nextCommand, command: command), on: target)
        nextCommand += 1
    }

    /// A new instance of a step's `viewModel` (else the main one), with its `set` values queued.
    private mutating func newInstance(_ spec: JSONValue, on target: String) throws -> InstanceID {
        let viewModel = spec["viewModel"]?.stringValue ?? trace.header["viewModel"]?.stringValue ?? ""
        let instance = try runtime.createInstance(source(spec["instance"], viewModel: viewModel))
        let properties = try runtime.schema.properties(of: viewModel)
        for (name, value) in spec["set"]?.objectValue ?? [] {
            guard let property = properties.first(where: { $0.name == name }) else {
                throw StateMachineTrace.Malformed(trace: trace.name, reason: "\(viewModel) has no property \(name)")
            }
            try enqueue(.set(path: "#\(instance.rawValue)/" + name, value: try typed(value, property)), on: target)
        }
        return instance
    }

    private func source(_ spec: JSONValue?, viewModel: String) -> InstanceSource {
        switch spec {
        case .some(.string("blank")): return .blank(from: .name(viewModel))
        case .some(let object) where object["name"]?.stringValue != nil:
            return .name(object["name"]!.stringValue!, from: .name(viewModel))
        case .some(let object) where object["index"]?.intValue != nil:
            return .index(object["index"]!.intValue!, from: .name(viewModel))
        default: return .viewModelDefault(from: .name(viewModel))
        }
    }

    /// A step's value for the property at `path`, typed by the property.
    private func value(_ value: JSONValue?, at path: String, on target: String) throws -> PropertyValue {
        let property = try runtime.property(at: path, in: target)
        return try typed(value ?? .null, property)
    }

    private func typed(_ value: JSONValue, _ property: PropertySchema) throws -> PropertyValue {
        switch property.type {
        case .number: if let n = value.numberValue { return .number(Float(n)) }
        case .string: if let s = value.stringValue { return .string(s) }
        case .boolean: if let b = value.boolValue { return .boolean(b) }
        case .color: if let c = value.stringValue.flatMap(ColorText.parse) { return .color(c) }
        case .enum:
            if let s = value.stringValue { return .enumValue(s) }
            let names = property.enumName.flatMap { runtime.schema.enumSchema(named: $0) }?.values ?? []
            if let index = value["index"]?.intValue, names.indices.contains(index) { return .enumValue(names[index]) }
        default: break
        }
        throw StateMachineTrace.Malformed(trace: trace.name, reason: "a \(property.type) value \(value.jsonText)")
    }

    /// A bare value (a bind target's or an input's): numbers, booleans, strings, colours.
    /// A value for a property of a known type (a string is a color's text for a color).
    private func literal(_ value: JSONValue?, as type: DataType) throws -> PropertyValue {
        if type == .color, let text = value?.stringValue, let color = ColorText.parse(text) { return .color(color) }
        if type == .string, let text = value?.stringValue { return .string(text) }
        return try literal(value)
    }

    private func literal(_ value: JSONValue?) throws -> PropertyValue {
        switch value {
        case .some(.number(let n)): return .number(Float(n))
        case .some(.bool(let b)): return .boolean(b)
        case .some(.string(let s)): return ColorText.parse(s).map { .color($0) } ?? .string(s)
        default: throw StateMachineTrace.Malformed(trace: trace.name, reason: "a value \(value?.jsonText ?? "none")")
        }
    }

    // MARK: Comparing

    private mutating func compare(_ batches: [ChangeBatch], with state: JSONValue?, step: Int) {
        guard let state else { return mismatches.append("step \(step): the trace has no state line for this advance") }
        let here = "step \(step) (t=\(state["time"]?.numberValue ?? 0))"
        guard state["step"]?.intValue == step else {
            return mismatches.append("\(here): the trace's next state line is of step \(state["step"]?.jsonText ?? "?")")
        }
        let types = Dictionary(trace.header["schema"]?.objectValue ?? [], uniquingKeysWith: { a, _ in a })
        compareValues(state["vm"], notified: state["notified"], types: types, prefix: "", batches, here)
        for (global, expected) in state["globals"]?.objectValue ?? [] {
            let types = Dictionary(trace.header["globals"]?[global]?.objectValue ?? [], uniquingKeysWith: { a, _ in a })
            compareValues(expected["vm"], notified: expected["notified"], types: types, prefix: "@" + global + "/", batches, here)
        }
        let events = batches.flatMap(\.events).map(\.name)
        let expectedEvents = (state["events"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "?" }
        if events != expectedEvents { mismatches.append("\(here): events \(events), Rive reported \(expectedEvents)") }
        let layers = runtime.layerStates(Self.target).map { "\($0.layerName): \($0.state)" }
        let rive = (state["layers"]?.arrayValue ?? []).map {
            "\($0["layer"]?.stringValue ?? "?"): \($0["state"]?["index"]?.intValue ?? -1)"
        }
        if layers != rive { mismatches.append("\(here): layers \(layers), Rive \(rive)") }
        mismatches += bindDifferences(state, here, ownBinds: ownBinds)
    }

    private mutating func compareValues(
        _ values: JSONValue?, notified: JSONValue?, types: [String: JSONValue], prefix: String, _ batches: [ChangeBatch],
        _ here: String
    ) {
        for (path, expected) in values?.objectValue ?? [] {
            var type = types[path]?.stringValue ?? ""
            if type.isEmpty, let last = path.split(separator: "/").last, Int(last) != nil { type = "item" }
            if type == "trigger" {
                let fired = Self.stateMachineFires(at: prefix + path, in: batches)
                let rive = notified?[path]?.intValue ?? 0
                if fired != rive { mismatches.append("\(here): \(prefix + path) fired \(fired) times by the state machine, Rive \(rive)") }
                continue
            }
            if let difference = compare(prefix + path, type: type, expected: expected) { mismatches.append("\(here): \(difference)") }
        }
    }

    /// The state machine's `fire` effects at `path` in the batches.
    static func stateMachineFires(at path: String, in batches: [ChangeBatch]) -> Int {
        batches.flatMap(\.effects).filter { effect in
            guard case .fire = effect.change, effect.origin == .stateMachine else { return false }
            return effect.paths.contains(path)
        }.count
    }

    /// nil when the replica's value at `path` is the trace's (numbers within 1e-3).
    private func compare(_ path: String, type: String, expected: JSONValue) -> String? {
        guard let replica else { return "no replica" }
        let store = replica.store
        func viewModelName(_ id: InstanceID?) -> String? { id.flatMap { store[$0]?.viewModel } }
        var itemIndex: Int?
        var listPath = path
        if type == "item", let slash = path.lastIndex(of: "/"), let index = Int(path[path.index(after: slash)...]) {
            listPath = String(path[..<slash])
            itemIndex = index
        }
        let actual: PropertyValue
        do { actual = try replica.resolve(listPath, schema: runtime.schema).value } catch { return "\(path): \(error)" }
        let matches: Bool
        switch (type, actual) {
        case ("number", .number(let n)): matches = expected.numberValue.map { abs(Double(n) - $0) <= 1e-3 } ?? false
        case ("string", .string(let s)): matches = expected.stringValue == s
        case ("boolean", .boolean(let b)): matches = expected.boolValue == b
        case ("color", .color(let c)): matches = expected.stringValue?.uppercased() == ColorText.format(c)
        case ("enum", .enumValue(let e)): matches = expected.stringValue == e
        case ("list", .list(let items)): matches = expected.intValue == items.count
        case ("item", .list(let items)):
            // null: the trace does not name the item's view model (an item added without one).
            matches =
                itemIndex.map { items.indices.contains($0) && (expected.isNull || expected.stringValue == viewModelName(items[$0])) }
                ?? false
        case ("viewModel", .viewModel(let nested)): matches = expected.stringValue == viewModelName(nested)
        case (_, .asset(let reference)): matches = (expected.intValue == 4_294_967_295) == (reference == nil)
        case (_, .artboard(let name)): matches = (expected.intValue == 4_294_967_295) == (name == nil)
        default: return "\(path): a \(type) in the trace, \(actual) here"
        }
        return matches ? nil : "\(path) is \(actual), Rive \(expected.jsonText)"
    }
}
