/// The declaration of one subcommand: its name, help text, accepted arguments and what it does.
///
/// Adding a subcommand is adding one `CommandSpec` to `RiveSyncCommandLine.commands`; parsing,
/// usage errors and `--help` come from the declaration.
public struct CommandSpec: Sendable {
    /// An option the command accepts.
    public struct Option: Sendable {
        /// The long name without dashes (`text` for `--text`).
        public var name: String
        /// The value's placeholder (`PORT` for `--port PORT`); nil for a flag without a value.
        public var valueName: String?
        public var help: String

        public init(_ name: String, valueName: String? = nil, help: String) {
            self.name = name
            self.valueName = valueName
            self.help = help
        }
    }

    public typealias Action = @Sendable (ParsedArguments, inout any Console) throws(CommandError) -> Void

    public var name: String
    /// One line for the command list.
    public var summary: String
    /// More lines for `--help` after the summary (nil for none).
    public var details: String?
    /// Placeholder names of the required positional arguments, in order.
    public var positionals: [String]
    /// Whether the last positional may be given any number of times, including none.
    public var variadic: Bool
    public var options: [Option]
    public var run: Action

    public init(
        name: String, summary: String, details: String? = nil, positionals: [String] = [], variadic: Bool = false,
        options: [Option] = [],
        run: @escaping Action
    ) {
        self.name = name
        self.summary = summary
        self.details = details
        self.positionals = positionals
        self.variadic = variadic
        self.options = options
        self.run = run
    }

    /// `inspect FILE [--text]`.
    public var synopsis: String {
        let parts =
            [name] + (variadic ? positionals.dropLast() + positionals.suffix(1).map { "[\($0)...]" } : positionals)
            + options.map { option in
                "[--\(option.name)\(option.valueName.map { " " + $0 } ?? "")]"
            }
        return parts.joined(separator: " ")
    }

    /// The text `rivesync COMMAND --help` prints.
    public var helpText: String {
        var lines = ["usage: rivesync \(synopsis)", "", summary]
        if let details { lines += ["", details] }
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            for option in options {
                let label = "--\(option.name)\(option.valueName.map { " " + $0 } ?? "")"
                lines.append("  \(label.padded(to: 19))  \(option.help)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
