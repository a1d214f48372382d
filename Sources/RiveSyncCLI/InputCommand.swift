import RiveSyncClient

/// `rivesync input TARGET NAME [VALUE]`: drives a legacy input of a state machine (Rive's
/// `SMIInput`, PROTOCOL.md §8): with a VALUE (`true`, `false` or a number) it sets a boolean or
/// number input, without one it fires a trigger input. Prints nothing (with `--json`, the
/// daemon's acknowledgement) and returns after the daemon applied it.
enum InputCommand {
    static let spec = CommandSpec(
        name: "input", summary: "Set a state machine input NAME to VALUE (true, false or a number), or fire it without one.",
        details: "The inputs and their values are listed by 'rivesync ls'.",
        positionals: ["TARGET", "NAME", "VALUE"], variadic: true, options: RemoteCommand.options + [ManualTargets.option]
    ) { (arguments, console) throws(CommandError) in
        let (targetName, input) = (arguments.positionals[0], arguments.positionals[1])
        let values = arguments.positionals.dropFirst(2)
        guard values.count <= 1 else { throw .usage("input: one VALUE at most") }
        let value = try values.first.map(parse)
        let advance = arguments.has("advance")
        try RemoteCommand.oneShot(arguments, &console) { worker, output in
            let target = try await worker.target(named: targetName)
            let machine = try await worker.stateMachine(named: targetName)
            let receipt = try await ManualTargets.apply(target, advance: advance, output: output) {
                switch value {
                case .number(let number)?: try await machine.setInput(named: input, to: number)
                case .boolean(let flag)?: try await machine.setInput(named: input, to: flag)
                case nil: try await machine.fireInput(named: input)
                }
            }
            ValueCommands.printReceipt(receipt, output)
        }
    }

    /// A value an input takes: a boolean input's or a number input's.
    enum Value: Sendable {
        case number(Double)
        case boolean(Bool)
    }

    static func parse(_ text: String) throws(CommandError) -> Value {
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default:
            guard let number = Double(text), number.isFinite else {
                throw .invalidValue("input: VALUE is true, false or a number, not '\(text)'")
            }
            return .number(number)
        }
    }
}
