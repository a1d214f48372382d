import RiveSyncClient
import RiveSyncJSON

/// `rivesync advance TARGET`: advances a manual target now (applies its queued commands) and
/// prints nothing (with `--json`, `{"target":…,"seq":N}`, the seq after the advance).
enum AdvanceCommand {
    static let spec = CommandSpec(
        name: "advance", summary: "Advance a manual target now: apply its queued commands.", positionals: ["TARGET"],
        options: RemoteCommand.options
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let seq = try await worker.stateMachine(named: targetName).advance()
            if output.json { output.line(JSONValue.object([("target", .string(targetName)), ("seq", .number(Double(seq)))]).jsonText) }
        }
    }
}
