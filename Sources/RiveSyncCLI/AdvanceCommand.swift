import RiveSyncClient
import RiveSyncJSON

/// `rivesync advance TARGET [--elapsed S]`: advances a manual target now (applies its queued
/// commands, then runs its state machine for S seconds, 0 by default: Rive's `advance(by:)`)
/// and prints nothing (with `--json`, `{"target":…,"seq":N,"settled":B}`: the seq after the
/// advance and whether the state machine needs no further advance).
enum AdvanceCommand {
    static let spec = CommandSpec(
        name: "advance", summary: "Advance a manual target now: apply its queued commands, run its state machine.",
        positionals: ["TARGET"],
        options: RemoteCommand.options + [.init("elapsed", valueName: "S", help: "seconds the state machine runs (0 to 60; default 0)")]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        let elapsed = try seconds(arguments.value("elapsed") ?? "0", "advance: --elapsed")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let advanced = try await worker.stateMachine(named: targetName).advance(elapsed: elapsed)
            if output.json {
                output.line(
                    JSONValue.object([
                        ("target", .string(targetName)), ("seq", .number(Double(advanced.seq))), ("settled", .bool(advanced.settled)),
                    ]).jsonText)
            }
        }
    }

    /// A number of seconds: finite and not negative (the daemon checks the upper bound).
    static func seconds(_ text: String, _ what: String) throws(CommandError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw .invalidValue("\(what) needs a number of seconds ≥ 0, not '\(text)'")
        }
        return value
    }
}
