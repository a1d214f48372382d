import RiveSyncJSON
import RiveSyncModel

/// `rivesync inspect FILE [--text] [--graph [--json]]`: prints a file's schema as JSON
/// (`FileSchema.jsonValue`) or, with `--text`, as a tree for humans; with `--graph`, its state
/// machines (layers, states, transitions with their conditions, listeners, data binds) as a
/// tree, or with `--json` in the JSON schema format's description (SCHEMA.md, "State machines").
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Print the view models, enums, artboards and assets of a .riv or JSON schema file.",
        positionals: ["FILE"],
        options: [
            .init("text", help: "print a human-readable tree instead of JSON"),
            .init("graph", help: "print the state machines: converters, events, layers, states, transitions, listeners, data binds"),
            .init("json", help: "print JSON (the default without --graph; with it, SCHEMA.md's state machine format)"),
        ]
    ) { (arguments, console) throws(CommandError) in
        let schema = try SchemaFileLoader.load(path: arguments.positionals[0])
        if arguments.has("graph") {
            let graph = schema.stateMachineGraphJSON
            console.write(arguments.has("json") ? graph.prettyText() + "\n" : GraphTextTree(graph: graph).render())
        } else if arguments.has("text") {
            console.write(SchemaTextTree(schema: schema).render())
        } else {
            console.write(schema.jsonValue(authoredValues: true).prettyText() + "\n")
        }
    }
}
