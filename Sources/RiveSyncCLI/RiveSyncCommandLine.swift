import RiveSyncJSON
import RiveSyncToolSupport
import RiveSyncVersion

/// The `rivesync` command line: finds the subcommand, parses its arguments, runs it and turns
/// the outcome into an exit status and at most one line on standard error (with `--json`,
/// `{"error":{"code":…,"exit":…,"message":…}}`).
public enum RiveSyncCommandLine {
    /// Every subcommand, in the order `--help` lists them.
    public static let commands: [CommandSpec] = [
        InspectCommand.spec, LsCommand.spec, ValueCommands.get, ValueCommands.set, ValueCommands.fire, WatchCommand.spec,
        ListCommand.spec, BindCommand.spec, InputCommand.spec, BindTargetCommand.spec, AdvanceCommand.spec, DumpCommand.spec,
        DeleteCommand.spec,
        TargetCommands.create, TargetCommands.publish, TargetCommands.load, WhoCommand.spec, ScriptCommand.spec, CompletionCommand.spec,
    ]

    /// Runs the command line `arguments` (without the program name).
    public static func run(_ arguments: [String], console: inout any Console) -> ExitCode {
        let json = (arguments.firstIndex(of: "--").map { arguments[..<$0] } ?? arguments[...]).contains("--json")
        let (global, rest) = splitGlobalOptions(arguments)
        guard let first = rest.first else {
            return fail(.usage("missing command (see 'rivesync --help')"), json: json, &console)
        }
        if first == "--help" || first == "-h" || first == "help" {
            guard let name = rest.dropFirst().first, !name.hasPrefix("-"), name != "help" else {
                console.write(helpText)
                return .success
            }
            // `rivesync help set` is `rivesync set --help`.
            return run([name, "--help"], console: &console)
        }
        if first == "--version" {
            console.write("rivesync \(RiveSyncVersion.current)\n")
            return .success
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                let options = RemoteCommand.options.map { "--\($0.name)" } + ["--help", "--version"]
                let name = String(first.prefix { $0 != "=" })
                let hint = NearestName.hint(for: name, among: options)
                return fail(.usage("unknown option '\(name)'\(hint) (see 'rivesync --help')"), json: json, &console)
            }
            let hint = NearestName.hint(for: first, among: commands.map(\.name) + ["help"])
            return fail(.usage("unknown command '\(first)'\(hint) (see 'rivesync --help')"), json: json, &console)
        }
        let commandArguments = global + rest.dropFirst()
        if commandArguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            console.write(spec.helpText)
            return .success
        }
        do throws(CommandError) {
            try spec.run(try ParsedArguments(commandArguments, for: spec), &console)
            return .success
        } catch {
            return fail(error, json: json, &console)
        }
    }

    /// Global options given before the command name, and the rest (from the command name on).
    static func splitGlobalOptions(_ arguments: [String]) -> (global: [String], rest: [String]) {
        var global: [String] = []
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("--"), arguments[index] != "--" {
            let name = String(arguments[index].dropFirst(2).prefix { $0 != "=" })
            guard let option = RemoteCommand.options.first(where: { $0.name == name }) else { break }
            global.append(arguments[index])
            if option.valueName != nil, !arguments[index].contains("="), index + 1 < arguments.count {
                index += 1
                global.append(arguments[index])
            }
            index += 1
        }
        return (global, Array(arguments[index...]))
    }

    /// The text `rivesync --help` prints.
    public static var helpText: String {
        let width = commands.map(\.name.count).max() ?? 0
        var lines = ["usage: rivesync [GLOBAL OPTIONS] COMMAND [ARGUMENTS]", "", "commands:"]
        for spec in commands {
            lines.append("  \(spec.name.padded(to: width))  \(spec.summary)")
        }
        lines += ["", "global options (before or after the command):"]
        for option in RemoteCommand.options {
            lines.append("  \("--\(option.name)\(option.valueName.map { " " + $0 } ?? "")".padded(to: 19))  \(option.help)")
        }
        lines += ["", "exit status:"]
        for code in ExitCode.allCases {
            lines.append("  \(String(code.rawValue).padded(to: 3))  \(code.name)")
        }
        lines.append("")
        lines.append("Run 'rivesync COMMAND --help' for a command's arguments; 'rivesync --version' for the version.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fail(_ error: CommandError, json: Bool, _ console: inout any Console) -> ExitCode {
        if json {
            let body = JSONValue.object([
                ("code", .string(error.code)), ("exit", .number(Double(error.exitCode.rawValue))), ("message", .string(error.message)),
            ])
            console.writeError(JSONValue.object([("error", body)]).jsonText + "\n")
        } else {
            console.writeError("rivesync: \(error.message)\n")
        }
        return error.exitCode
    }
}
