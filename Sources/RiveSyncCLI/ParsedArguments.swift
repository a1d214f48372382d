import RiveSyncToolSupport

/// A command's arguments after parsing against its `CommandSpec`.
///
/// Accepts `--name`, `--name VALUE` and `--name=VALUE`, positionals anywhere, and `--` to end
/// options. Unknown options, missing or extra positionals and missing values are usage errors.
public struct ParsedArguments: Sendable, Hashable {
    /// Positional arguments in order (exactly as many as the spec names).
    public private(set) var positionals: [String] = []
    /// Option values by name; a flag without a value maps to "".
    public private(set) var options: [String: String] = [:]

    /// Whether a flag or option was given.
    public func has(_ option: String) -> Bool { options[option] != nil }

    /// The value given for an option.
    public func value(_ option: String) -> String? { options[option] }

    /// Parses `arguments` (everything after the command name).
    public init(_ arguments: [String], for spec: CommandSpec) throws(CommandError) {
        var rest = arguments[...]
        var onlyPositionals = false
        while let argument = rest.popFirst() {
            guard !onlyPositionals, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            guard argument.hasPrefix("--") else {
                let hint = Double(argument) == nil ? "" : " (a negative number? put -- before it)"
                throw Self.usage(spec, "unknown option '\(argument)'\(hint)")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let hint = NearestName.hint(for: "--\(name)", among: spec.options.map { "--\($0.name)" } + ["--help"])
                throw Self.usage(spec, "unknown option '--\(name)'\(hint)")
            }
            guard !has(name) else { throw Self.usage(spec, "option '--\(name)' given twice") }
            if option.valueName == nil {
                guard inlineValue == nil else { throw Self.usage(spec, "option '--\(name)' takes no value") }
                options[name] = ""
            } else if let value = inlineValue ?? rest.popFirst() {
                options[name] = value
            } else {
                throw Self.usage(spec, "option '--\(name)' needs a value")
            }
        }
        let required = spec.variadic ? spec.positionals.count - 1 : spec.positionals.count
        if positionals.count < required {
            throw Self.usage(spec, "missing \(spec.positionals[positionals.count])")
        }
        if positionals.count > spec.positionals.count, !spec.variadic {
            throw Self.usage(spec, "unexpected argument '\(positionals[spec.positionals.count])'")
        }
    }

    private static func usage(_ spec: CommandSpec, _ problem: String) -> CommandError {
        .usage("\(spec.name): \(problem) (usage: rivesync \(spec.synopsis))")
    }
}
