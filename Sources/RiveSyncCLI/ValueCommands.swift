import RiveSyncClient
import RiveSyncJSON

/// `rivesync get|set|fire TARGET PATH [VALUE]`: one property of a state machine or published
/// instance. `get` prints the value as JSON; `set` and `fire` print nothing (with `--json`,
/// the daemon's acknowledgement) and return after the daemon applied the change.
enum ValueCommands {
    static let get = CommandSpec(
        name: "get", summary: "Print the value at PATH of a target as JSON.", positionals: ["TARGET", "PATH"],
        options: RemoteCommand.options
    ) { (arguments, console) throws(CommandError) in
        let (targetName, path) = (arguments.positionals[0], arguments.positionals[1])
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            let (type, value) = try await namingPath(path) { try await target.value(at: path) }
            if output.json {
                let seq = try await target.seq()
                output.line(
                    JSONValue.object([
                        ("target", .string(targetName)), ("path", .string(path)), ("type", .string("\(type)")),
                        ("seq", .number(Double(seq))), ("value", try JSONParser().parse(value.jsonText)),
                    ]).jsonText)
            } else {
                output.line(value.jsonText)
            }
        }
    }

    static let set = CommandSpec(
        name: "set", summary: "Set the value at PATH, read by the property's type (use -- before negative numbers).",
        details: """
            More PATH VALUE pairs are set as one transaction: in the same advance, in their order, all or
            none (a theme switch reaches every subscriber in one batch). When one fails, nothing is set
            and the error names the pair (its 0-based index).
            """,
        positionals: ["TARGET", "PATH", "VALUE", "PATH VALUE"], variadic: true, options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        let pairs = Array(arguments.positionals.dropFirst())
        guard pairs.count.isMultiple(of: 2) else { throw .usage("set: every PATH needs a VALUE") }
        let advance = arguments.has("advance")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            var values: [(path: String, value: DynamicValue)] = []
            for index in stride(from: 0, to: pairs.count, by: 2) {
                let path = pairs[index]
                let type = try await target.value(at: path).type
                values.append((path, try await ValueText.parse(pairs[index + 1], as: type, path: path, worker: worker)))
            }
            if values.count == 1, let (path, value) = values.first {
                printReceipt(
                    try await ManualTargets.apply(target, advance: advance, output: output) {
                        try await target.setValue(at: path, to: value)
                    },
                    output)
            } else {
                let all = values
                printReceipt(
                    try await ManualTargets.apply(target, advance: advance, output: output) { try await target.setValues(all) }, output)
            }
        }
    }

    static let fire = CommandSpec(
        name: "fire", summary: "Fire the trigger at PATH.", positionals: ["TARGET", "PATH"],
        options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let (targetName, path) = (arguments.positionals[0], arguments.positionals[1])
        let advance = arguments.has("advance")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            printReceipt(
                try await namingPath(path) {
                    try await ManualTargets.apply(target, advance: advance, output: output) { try await target.fire(at: path) }
                },
                output)
        }
    }

    /// Runs `body`, naming `path` in a type mismatch as the daemon's message does
    /// (`'mood': expected trigger, got number`); the client's error carries only the two types.
    static func namingPath<T: Sendable>(_ path: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch ViewModelInstanceError.valueMismatch(let expected, let actual) {
            throw CommandError.remote(.invalidValue, code: "type_mismatch", message: "'\(path)': expected \(expected), got \(actual)")
        }
    }

    /// With `--json`, a transaction's acknowledgement: `{"target":…,"seq":…,"command":…,"commands":[…]}`.
    static func printReceipt(_ receipt: TransactionReceipt, _ output: Output) {
        guard output.json else { return }
        output.line(
            JSONValue.object([
                ("target", .string(receipt.target)), ("seq", .number(Double(receipt.seq))),
                ("command", .number(Double(receipt.commands.first ?? 0))),
                ("commands", .array(receipt.commands.map { .number(Double($0)) })),
            ]).jsonText)
    }

    /// With `--json`, the acknowledgement: `{"target":…,"seq":…,"command":…}`.
    static func printReceipt(_ receipt: Receipt, _ output: Output) {
        guard output.json else { return }
        output.line(
            JSONValue.object([
                ("target", .string(receipt.target)), ("seq", .number(Double(receipt.seq))), ("command", .number(Double(receipt.command))),
            ]).jsonText)
    }
}
