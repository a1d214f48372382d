import RiveSyncClient
import RiveSyncJSON

/// `rivesync dump TARGET [--path PATH]`: a target's whole state as one JSON document — the
/// shape of a whole-target snapshot (`target`, `epoch`, `seq`, `bindings`, `instances` in id
/// order) — or, with `--path`, the value at PATH with its nested instances and list items
/// written out as `{"id","viewModel","name","values"}` objects.
enum DumpCommand {
    static let spec = CommandSpec(
        name: "dump", summary: "Print a target's whole state (or the tree at --path) as JSON.", positionals: ["TARGET"],
        options: RemoteCommand.options + [.init("path", valueName: "PATH", help: "only the value at PATH, nested instances expanded")]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        let path = arguments.value("path")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            let text = try await target.state()
            guard let path else { return output.line(text) }
            let state = try JSONParser().parse(text)
            var value: JSONValue
            if path.hasPrefix("@"), !path.contains("/") {  // a bare global slot: its instance
                let slot = state["bindings"]?.arrayValue?.first { $0["slot"]?.stringValue == String(path.dropFirst()) }
                guard let slot else { throw ViewModelInstanceError.noSuchProperty(path: path) }
                value = ["instance": slot["instance"] ?? .null]
            } else {
                value = try JSONParser().parse(try await target.value(at: path).value.jsonText)
            }
            var instances: [Int: JSONValue] = [:]
            for instance in state["instances"]?.arrayValue ?? [] {
                if let id = instance["id"]?.intValue { instances[id] = instance }
            }
            output.line(expand(value, instances, visiting: []).jsonText)
        }
    }

    /// `value` with `{"instance": id}` and list items replaced by the instances' states
    /// (recursively; an instance already being written out stays a reference).
    static func expand(_ value: JSONValue, _ instances: [Int: JSONValue], visiting: Set<Int>) -> JSONValue {
        func state(_ id: Int) -> JSONValue {
            guard !visiting.contains(id), let instance = instances[id], let values = instance["values"]?.objectValue else {
                return ["instance": .number(Double(id))]
            }
            let expanded = values.map { ($0.0, expand($0.1, instances, visiting: visiting.union([id]))) }
            return .object([
                ("id", .number(Double(id))), ("viewModel", instance["viewModel"] ?? .null), ("name", instance["name"] ?? .null),
                ("values", .object(expanded)),
            ])
        }
        if let object = value.objectValue, object.count == 1, let id = value["instance"]?.intValue { return state(id) }
        if let items = value.arrayValue, items.allSatisfy({ $0.intValue != nil }) { return .array(items.map { state($0.intValue!) }) }
        return value
    }
}
