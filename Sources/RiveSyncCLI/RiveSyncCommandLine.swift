/// The `rivesync` command line: finds the subcommand, parses its arguments, runs it and turns
/// the outcome into an exit status and at most one line on standard error.
public enum RiveSyncCommandLine {
    /// Every subcommand, in the order `--help` lists them.
    public static let commands: [CommandSpec] = [
        InspectCommand.spec, LsCommand.spec, ValueCommands.get, ValueCommands.set, ValueCommands.fire, WatchCommand.spec,
        ListCommand.spec, BindCommand.spec, DeleteCommand.spec, ScriptCommand.spec,
    ]

    /// Runs the command line `arguments` (without the program name).
    public static func run(_ arguments: [String], console: inout any Console) -> ExitCode {
        guard let first = arguments.first else {
            return fail(.usage("missing command (see 'rivesync --help')"), &console)
        }
        if first == "--help" || first == "-h" || first == "help" {
            console.write(helpText)
            return .success
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            return fail(.usage("unknown command '\(first)' (see 'rivesync --help')"), &console)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.write(spec.helpText)
            return .success
        }
        do throws(CommandError) {
            try spec.run(try ParsedArguments(rest, for: spec), &console)
            return .success
        } catch {
            return fail(error, &console)
        }
    }

    /// The text `rivesync --help` prints.
    public static var helpText: String {
        let width = commands.map(\.name.count).max() ?? 0
        var lines = ["usage: rivesync COMMAND [ARGUMENTS]", "", "commands:"]
        for spec in commands {
            lines.append("  \(spec.name.padded(to: width))  \(spec.summary)")
        }
        lines.append("")
        lines.append("Run 'rivesync COMMAND --help' for a command's arguments.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fail(_ error: CommandError, _ console: inout any Console) -> ExitCode {
        console.writeError("rivesync: \(error.message)\n")
        return error.exitCode
    }
}
