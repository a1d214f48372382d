import RiveSyncClient

/// `rivesync bind-target TARGET BIND VALUE`: writes the target side of the state machine's
/// artboard data bind BIND (its index, as `rivesync inspect --graph` numbers them), as an
/// interactive component would (PROTOCOL.md §8 `setBindTarget`); two-way and to-source binds
/// carry it to the view model. VALUE is `true`, `false`, a number, a color `#RRGGBB` /
/// `#AARRGGBB`, or a string (plain or JSON-quoted); the daemon reads it as the bound property's
/// type. Prints nothing (with `--json`, the daemon's acknowledgement) and returns after the
/// daemon applied it.
enum BindTargetCommand {
    static let spec = CommandSpec(
        name: "bind-target", summary: "Write VALUE to the component side of data bind BIND, as an interactive component would.",
        details: "BIND is the data bind's index among the artboard's data binds, as 'rivesync inspect --graph FILE' numbers them.",
        positionals: ["TARGET", "BIND", "VALUE"], options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let targetName = arguments.positionals[0]
        guard let bind = Int(arguments.positionals[1]), bind >= 0 else {
            throw .invalidValue("bind-target: BIND is a data bind's index (0, 1, …), not '\(arguments.positionals[1])'")
        }
        let value = parse(arguments.positionals[2])
        let advance = arguments.has("advance")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            let machine = try await worker.stateMachine(named: targetName)
            let receipt = try await ManualTargets.apply(target, advance: advance, output: output) {
                try await machine.setBindTarget(bind, to: value)
            }
            ValueCommands.printReceipt(receipt, output)
        }
    }

    /// A VALUE by its form: a boolean, a number, a color, else a string.
    static func parse(_ text: String) -> DynamicValue {
        if text == "true" || text == "false" { return .boolean(text == "true") }
        if let number = Float(text), number.isFinite { return .number(number) }
        if let argb = ValueText.parseColor(text) { return .color(Color(argb)) }
        return .string(ValueText.unquoted(text))
    }
}
