import RiveSyncJSON
import RiveSyncModel

/// `rivesync inspect FILE [--text]`: prints a file's schema as JSON (`FileSchema.jsonValue`) or,
/// with `--text`, as a tree for humans.
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Print the view models, enums, artboards and assets of a .riv or JSON schema file.",
        positionals: ["FILE"],
        options: [.init("text", help: "print a human-readable tree instead of JSON")]
    ) { (arguments, console) throws(CommandError) in
        let schema = try SchemaFileLoader.load(path: arguments.positionals[0])
        if arguments.has("text") {
            console.write(SchemaTextTree(schema: schema).render())
        } else {
            console.write(schema.jsonValue(authoredValues: true).prettyText() + "\n")
        }
    }
}
