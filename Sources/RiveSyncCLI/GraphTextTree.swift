import RiveSyncJSON
import RiveSyncModel

/// The `inspect --graph` rendering of `FileSchema.stateMachineGraphJSON`: the file's data
/// converters (by index), then per artboard and state machine, its inputs, the artboard's
/// events, layers with their states (by index) and transitions with their conditions and
/// actions, listeners with their actions, and the artboard's data binds, indented by two
/// spaces per level.
struct GraphTextTree {
    let graph: JSONValue
    private var lines: [String] = []

    init(graph: JSONValue) {
        self.graph = graph
    }

    func render() -> String {
        var tree = self
        let converters = graph["converters"]?.arrayValue ?? []
        if !converters.isEmpty { tree.line(0, "converters") }
        for (index, converter) in converters.enumerated() { tree.line(1, "[\(index)] " + tree.describe(converter: converter)) }
        for artboard in graph["artboards"]?.arrayValue ?? [] { tree.renderArtboard(artboard) }
        return tree.lines.joined(separator: "\n") + "\n"
    }

    private mutating func renderArtboard(_ artboard: JSONValue) {
        line(0, "artboard \(text(artboard["name"]))")
        let machines = artboard["stateMachines"]?.arrayValue ?? []
        if machines.isEmpty { line(1, "state machines: none") }
        for machine in machines {
            let described = machine.objectValue?.count ?? 0 > 1
            line(1, "state machine \(text(machine["name"]))" + (described ? "" : ": no graph"))
            for input in machine["inputs"]?.arrayValue ?? [] {
                line(2, "input \(text(input["name"])): \(text(input["type"]))" + (input["value"].map { " = \($0.jsonText)" } ?? ""))
            }
            for event in machine["events"]?.arrayValue ?? [] { line(2, "event \(text(event["name"]))") }
            for animation in machine["animations"]?.arrayValue ?? [] {
                let loop = animation["loop"].map { ", \(text($0))" } ?? ""
                line(
                    2, "timeline \(text(animation["name"])): \(text(animation["duration"])) frames at \(text(animation["fps"])) fps\(loop)")
                for keyed in animation["events"]?.arrayValue ?? [] {
                    line(3, "event \(text(keyed["event"])) at frame \(text(keyed["frame"]))")
                }
            }
            for layer in machine["layers"]?.arrayValue ?? [] { renderLayer(layer) }
            for listener in machine["listeners"]?.arrayValue ?? [] { renderListener(listener) }
            let binds = machine["dataBinds"]?.arrayValue ?? []
            for (position, bind) in binds.enumerated() {
                var parts = [
                    "bind [\(Self.riveNumbers(of: binds)[position])] \(text(bind["property"]))", text(bind["direction"]),
                    "\(text(bind["target"])).\(text(bind["targetProperty"]))",
                ]
                if let value = bind["targetValue"] { parts.append("(starts \(value.jsonText))") }
                if bind["once"] == true { parts.append("once") }
                if bind["sourceToTargetFirst"] == true { parts.append("source first") }
                if let converter = bind["converter"] { parts.append("converter \(reference(converter))") }
                line(2, parts.joined(separator: " "))
            }
        }
    }

    /// The number Rive gives each bind (`DataBindOrder`: what `setBindTarget` takes), by its
    /// position in the list.
    private static func riveNumbers(of binds: [JSONValue]) -> [Int] {
        let positions = DataBindOrder.filePositions(toSource: binds.map { ["toSource", "twoWay"].contains($0["direction"]?.stringValue) })
        var numbers = Array(repeating: 0, count: binds.count)
        for (number, position) in positions.enumerated() { numbers[position] = number }
        return numbers
    }

    private mutating func renderLayer(_ layer: JSONValue) {
        line(2, "layer \(text(layer["name"]))")
        for (index, state) in (layer["states"]?.arrayValue ?? []).enumerated() {
            let type = state["type"]?.stringValue ?? "AnimationState"
            line(3, "[\(index)] " + (state["animation"].map { "\(text($0)) (\(type))" } ?? type))
            for action in state["actions"]?.arrayValue ?? [] { line(4, "action " + describe(action: action)) }
            for transition in state["transitions"]?.arrayValue ?? [] {
                let to = transition["to"].map { $0.stringValue ?? "[\($0.jsonText)]" } ?? "?"
                let conditions = (transition["conditions"]?.arrayValue ?? []).map(describe(condition:))
                var timing: [String] = []
                for key in ["duration", "durationPercent", "exitTime", "exitTimePercent"] {
                    if let value = transition[key] { timing.append("\(key) \(value.jsonText)") }
                }
                if transition["disabled"] == true { timing.append("disabled") }
                let when = conditions.isEmpty ? "" : " when " + conditions.joined(separator: " and ")
                line(4, "→ \(to)\(when)" + (timing.isEmpty ? "" : " (\(timing.joined(separator: ", ")))"))
                for action in transition["actions"]?.arrayValue ?? [] { line(5, "action " + describe(action: action)) }
            }
        }
    }

    private mutating func renderListener(_ listener: JSONValue) {
        let name = listener["name"].map { " \(text($0))" } ?? ""
        let source =
            listener["property"].map { "on change of \(text($0))" } ?? listener["event"].map { "on event \(text($0))" }
            ?? listener["listenerType"].map { "listener type \($0.jsonText), not run" } ?? ""
        line(2, "listener\(name) \(source)")
        for action in listener["actions"]?.arrayValue ?? [] { line(3, describe(action: action)) }
    }

    private func describe(condition: JSONValue) -> String {
        if let trigger = condition["trigger"] { return "trigger \(text(trigger)) fired" }
        if let changed = condition["changed"] { return "\(text(changed)) changed" }
        let subject = condition["property"] ?? condition["component"] ?? condition["input"].map { .string("input " + text($0)) }
        guard let subject else { return "\(text(condition["type"])) (not run)" }
        let operation = condition["op"]?.stringValue ?? "equal"
        if condition["input"] != nil, condition["value"] == nil { return "\(text(subject))" }
        let otherComponent = condition["property"] != nil ? condition["component"] : condition["otherComponent"]
        let other = (condition["otherProperty"] ?? otherComponent).map(text) ?? condition["value"]?.jsonText ?? "?"
        let converter = condition["converter"].map { " (through converter \(reference($0)))" } ?? ""
        return "\(text(subject))\(converter) \(operation) \(other)"
    }

    private func describe(action: JSONValue) -> String {
        let at = action["at"] == "end" ? " at end" : ""
        if let fire = action["fire"] { return "fire \(text(fire))\(at)" }
        if let event = action["fireEvent"] { return "report event \(text(event))\(at)" }
        if let set = action["set"] {
            let from = action["otherProperty"].map(text) ?? action["value"]?.jsonText ?? "?"
            let converter = action["converter"].map { " through converter \(reference($0))" } ?? ""
            return "set \(text(set)) = \(from)\(converter)\(at)"
        }
        if let input = action["input"] {
            return "set input \(text(input))" + (action["value"].map { " = \($0.jsonText)" } ?? " (fire)") + at
        }
        return "\(text(action["type"])) (not run)\(at)"
    }

    /// A converter as `Type 'name'` with its other members (`key value`), its items, tokens
    /// and interpolator.
    private func describe(converter: JSONValue) -> String {
        var parts = [text(converter["type"]) + (converter["name"].map { " '\(text($0))'" } ?? "")]
        for (key, value) in converter.objectValue ?? [] where !["type", "name", "items", "tokens", "interpolator"].contains(key) {
            parts.append("\(key) \(value.jsonText)")
        }
        if let items = converter["items"]?.arrayValue { parts.append("items " + items.map(reference).joined(separator: ", ")) }
        if let tokens = converter["tokens"]?.arrayValue {
            parts.append("tokens " + tokens.map { token in describe(object: token) }.joined(separator: ", "))
        }
        if let interpolator = converter["interpolator"] { parts.append("interpolator " + describe(object: interpolator)) }
        return parts.joined(separator: ", ")
    }

    /// A graph object as its type and its members (`key value`).
    private func describe(object: JSONValue) -> String {
        ([text(object["type"])] + (object.objectValue ?? []).filter { $0.0 != "type" }.map { "\($0.0) \($0.1.jsonText)" })
            .joined(separator: " ")
    }

    /// A converter reference: `'name'`, or `[index]` as the converters are listed.
    private func reference(_ value: JSONValue) -> String {
        value.stringValue.map { "'\($0)'" } ?? "[\(value.jsonText)]"
    }

    private func text(_ value: JSONValue?) -> String {
        guard let value else { return "" }
        return value.stringValue ?? value.jsonText
    }

    private mutating func line(_ depth: Int, _ text: String) {
        lines.append(String(repeating: "  ", count: depth) + text)
    }
}
