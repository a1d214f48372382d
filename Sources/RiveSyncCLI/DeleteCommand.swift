import RiveSyncClient
import RiveSyncJSON

/// `rivesync delete TARGET`: deletes a state machine or published instance and prints how many
/// instances were freed with it (with `--json`, `{"target":…,"freed":[ids]}`).
enum DeleteCommand {
    static let spec = CommandSpec(
        name: "delete", summary: "Delete a target; instances only it held are freed.", positionals: ["TARGET"],
        options: RemoteCommand.options
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let freed = try await worker.deleteTarget(named: targetName)
            if output.json {
                output.line(
                    JSONValue.object([
                        ("target", .string(targetName)), ("freed", .array(freed.map { .number(Double($0)) })),
                    ]).jsonText)
            } else {
                output.line("deleted '\(targetName)', freed \(freed.count) instance\(freed.count == 1 ? "" : "s")")
            }
        }
    }
}
