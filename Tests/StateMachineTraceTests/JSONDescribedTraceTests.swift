import Foundation
import RiveFile
import RiveSyncJSON
import RiveSyncModel
import StateMachineTraceSupport
import Testing

/// A `.riv` file's state machines written in the JSON schema format (`inspect --graph --json`:
/// converters, events, data binds, listeners, layers) and read back by the JSON schema reader
/// behave as the `.riv` file does: Rive's recorded trace replays on the JSON-described file
/// with no difference (values, trigger fires, events, layer states), and every data bind's
/// target holds, after every advance, the value it holds when the `.riv` file itself runs.
@Suite struct JSONDescribedTraceTests {
    /// Traces whose state machines the JSON format describes, by the feature they hold up.
    static let traces = [
        "listener_view_model",  // a listener's set through an operation converter; to-string binds
        "vm_listener_fire_event",  // events, a listener reporting one
        "dbt2_range_mapper",  // range mapper converters with interpolators, binds to custom properties
        "dbt2_bool_toggle",  // boolean negate
        "dbt_calc_tostring",  // formulas, operations, rounding, to-string
        "dbt_trim_string",  // string trim
        "dbt_bound_props",  // binds to shapes' and text runs' properties
        "interpolate_to_end",  // an interpolator converter with its cubic interpolator (time-based)
        "twoway_source_first", "twoway_target_first", "twoway_target_change",  // two-way binds, source-to-target first
    ]

    /// The `.riv` file's schema with its state machines described instead of its raw graph.
    /// Listeners on pointer input, which this runtime never runs (no pointer reaches it) and the
    /// format does not describe, are left out.
    static func described(_ riv: FileSchema) throws -> FileSchema {
        let graph = riv.stateMachineGraphJSON
        let machines = Dictionary(
            (graph["artboards"]?.arrayValue ?? []).map {
                ($0["name"]?.stringValue ?? "", Self.withoutPointerListeners($0["stateMachines"]))
            },
            uniquingKeysWith: { first, _ in first })
        var members = (riv.jsonValue.objectValue ?? []).filter { $0.0 != "graph" }
        for (index, member) in members.enumerated() where member.0 == "artboards" {
            let artboards = (member.1.arrayValue ?? []).map { artboard -> JSONValue in
                var fields = (artboard.objectValue ?? []).filter { $0.0 != "stateMachines" }
                fields.append(("stateMachines", machines[artboard["name"]?.stringValue ?? ""] ?? .array([])))
                return .object(fields)
            }
            members[index] = ("artboards", .array(artboards))
        }
        if let converters = graph["converters"] { members.append(("converters", converters)) }
        return try FileSchema(json: .object(members))
    }

    /// State machine descriptions without their listeners on pointer input (`listenerType`).
    static func withoutPointerListeners(_ machines: JSONValue?) -> JSONValue {
        .array(
            (machines?.arrayValue ?? []).map { machine in
                guard let members = machine.objectValue, let listeners = machine["listeners"]?.arrayValue else { return machine }
                let kept = JSONValue.array(listeners.filter { $0["listenerType"] == nil })
                return .object(members.map { $0.0 == "listeners" ? ("listeners", kept) : $0 })
            })
    }

    @Test(arguments: traces) func aTraceReplaysOnTheJSONDescription(name: String) throws {
        let trace = try StateMachineTrace(named: name)
        let riv = try RiveFileReader.read([UInt8](Data(contentsOf: URL(fileURLWithPath: trace.rivPath))))
        var json = TraceRunner(trace: trace, schema: try Self.described(riv))
        try json.run()
        #expect(json.mismatches.isEmpty, "\(name) on its JSON description:\n\(json.mismatches.prefix(20).joined(separator: "\n"))")
        var file = try TraceRunner(trace: trace)
        try file.run()
        #expect(json.bindTargets.count == file.bindTargets.count)
        #expect(file.bindTargets.contains { !$0.isEmpty } == json.bindTargets.contains { !$0.isEmpty })
        for (step, (described, original)) in zip(json.bindTargets, file.bindTargets).enumerated() {
            #expect(described == original, "\(name), advance \(step): bind targets \(described) vs the .riv's \(original)")
        }
    }
}
