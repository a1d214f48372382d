import Foundation
import RiveSyncJSON
import RiveSyncToolSupport

/// What `rivesyncd`'s flags ask for.
public struct DaemonCommandLine: Sendable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Run the daemon.
        case serve
        /// Print the usage and exit 0.
        case help
        /// Print `rivesyncd VERSION` and exit 0.
        case version
        /// Check the configuration (`--check-config FILE`) without serving, then exit 0 or 1.
        case checkConfiguration
        /// Print a commented starting configuration (`--generate-config`) and exit 0.
        case generateConfiguration
        /// Print a new token as a tokens file (`--generate-token`) and exit 0.
        case generateToken
        /// Print the completion script for a shell (`--completion SHELL`) and exit 0.
        case completion(shell: String)

        /// The flag of an action that takes no other flag (nil for the others).
        var standsAlone: String? {
            switch self {
            case .generateConfiguration: "--generate-config"
            case .generateToken: "--generate-token"
            case .completion: "--completion"
            case .serve, .help, .version, .checkConfiguration: nil
            }
        }
    }

    public var action = Action.serve
    /// `--demo`: serve the built-in demo instead of a configuration file.
    public var demo = false
    /// The `--config` (or `--check-config`) file, re-read on SIGHUP (nil with `--demo`).
    public var configurationPath: String?
    /// Flags that override the configuration: `--host`, `--port`, `--workers`, `--state-dir`,
    /// `--log-level`, `--test-echo`.
    public var host: String?
    public var port: Int?
    public var workers: Int?
    public var stateDirectory: String?
    /// `--redis URL`: be a node of the cluster on that Redis (sets `cluster.redis`).
    public var redis: String?
    public var logLevel: Log.Level?
    /// `--log-format FORMAT`.
    public var logFormat: LogFormat?
    public var testEcho = false
    /// The `RIVESYNC_*` variables that set keys of the configuration (between the file and the
    /// flags; see `ConfigurationEnvironment`).
    public var environment = ConfigurationEnvironment([:])

    public static let usage = """
        usage: rivesyncd (--demo | --config FILE) [options]
               rivesyncd --check-config FILE
               rivesyncd --generate-config | --generate-token | --completion SHELL
               rivesyncd --version | --help

        \(flagTable.flatMap(\.usageLines).joined(separator: "\n"))

        Every configuration key outside lists can also be set by an environment variable named
        after its key path, RIVESYNC_ and upper snake case (RIVESYNC_LISTEN_PORT,
        RIVESYNC_LIMITS_MAX_MESSAGE_BYTES, RIVESYNC_AUTH_TOKENS_FILE): the file < the
        environment < the flags. --check-config shows the variables it applied.

        """

    /// Parses the arguments (without the program name); files are read by `configuration()`.
    /// Contradictory flags (`--demo` with `--config`, a flag given twice) are refused.
    /// `environment`'s `RIVESYNC_*` variables set configuration keys (`ConfigurationEnvironment`).
    public init(arguments: [String], environment: [String: String] = [:]) throws(ConfigurationError) {
        self.environment = ConfigurationEnvironment(environment)
        var source: String?
        var seen: Set<String> = []
        var rest = arguments[...]
        func value(_ flag: String) throws(ConfigurationError) -> String {
            guard let next = rest.popFirst() else { throw .invalid("\(flag) needs a value") }
            return next
        }
        func setSource(_ flag: String) throws(ConfigurationError) {
            if let source { throw .invalid("\(source) and \(flag) exclude each other") }
            source = flag
        }
        while let argument = rest.popFirst() {
            guard seen.insert(argument).inserted || !argument.hasPrefix("-") else { throw .invalid("\(argument) given twice") }
            switch argument {
            case "--help", "-h":
                action = .help
            case "--version":
                action = .version
            case "--generate-config":
                action = .generateConfiguration
            case "--generate-token":
                action = .generateToken
            case "--completion":
                let shell = try value(argument)
                guard Self.completionShells.contains(shell) else {
                    throw .invalid("--completion: expected one of \(Self.completionShells.joined(separator: ", "))")
                }
                action = .completion(shell: shell)
            case "--demo":
                try setSource(argument)
                demo = true
            case "--config", "--check-config":
                try setSource(argument)
                configurationPath = try value(argument)
                if argument == "--check-config" { action = .checkConfiguration }
            case "--host":
                host = try value(argument)
            case "--port":
                let text = try value(argument)
                guard let port = Int(text), (0...65535).contains(port) else { throw .invalid("--port: expected 0...65535") }
                self.port = port
            case "--workers":
                let text = try value(argument)
                guard let workers = Int(text), (1...64).contains(workers) else { throw .invalid("--workers: expected 1...64") }
                self.workers = workers
            case "--state-dir":
                stateDirectory = try value(argument)
            case "--redis":
                redis = try value(argument)
            case "--log-level":
                let text = try value(argument)
                guard let level = Log.Level(rawValue: text) else {
                    throw .invalid("--log-level: expected one of \(Log.Level.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                logLevel = level
            case "--log-format":
                let text = try value(argument)
                guard let format = LogFormat(rawValue: text) else {
                    throw .invalid("--log-format: expected one of \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                logFormat = format
            case "--test-echo":  // test only, deliberately not in `usage` (see `EchoHandler`)
                testEcho = true
            default:
                throw .invalid("unknown argument '\(argument)'\(NearestName.hint(for: argument, among: Self.flags))")
            }
        }
        let overrides =
            host != nil || port != nil || workers != nil || stateDirectory != nil || redis != nil || logLevel != nil || logFormat != nil
            || testEcho
        if action == .checkConfiguration, overrides { throw .invalid("--check-config takes no other flag") }
        if let alone = action.standsAlone, overrides || source != nil { throw .invalid("\(alone) takes no other flag") }
        if source == nil, action == .serve { throw .invalid("give --demo or --config FILE") }
    }

    /// The configuration to serve: the demo or the `--config` file, with the `RIVESYNC_*`
    /// variables, then the flags applied.
    public func configuration() throws(ConfigurationError) -> DaemonConfiguration {
        var result = demo ? DaemonConfiguration.demo() : DaemonConfiguration()
        if let configurationPath { result = try Self.read(configurationPath, environment: environment) }
        if demo, !environment.settings.isEmpty {
            var problems = ConfigurationProblems()
            result.read(environment.applied(to: DaemonConfiguration.demoSections), baseDirectory: ".", requiringAuth: false, &problems)
            try environment.attributed(problems).throwIfAny()
        }
        if let host { result.host = host }
        if let port { result.port = port }
        if let workers { result.workers = workers }
        if let stateDirectory { result.stateDirectory = stateDirectory }
        if let redis {
            if result.cluster == nil { result.cluster = DaemonConfiguration.Cluster(redis: redis) } else { result.cluster!.redis = redis }
        }
        if let logLevel { result.logLevel = logLevel }
        if let logFormat { result.logFormat = logFormat }
        result.testEcho = testEcho
        return result
    }

    /// Reads and validates a configuration file (its syntax and values, with `environment`'s
    /// variables applied; `Daemon.check` goes on to the files, view models and artboards it names).
    public static func read(_ path: String, environment: ConfigurationEnvironment = ConfigurationEnvironment([:]))
        throws(ConfigurationError) -> DaemonConfiguration
    {
        var problems = ConfigurationProblems()
        let configuration = try read(path, environment: environment, &problems)
        try problems.throwIfAny()
        return configuration
    }

    /// Reads a configuration file with `environment`'s variables applied, as far as it can:
    /// every problem of a key, attributed to its variable when one set it, goes to `problems`.
    /// Throws only when the file cannot be read or is not JSON.
    static func read(_ path: String, environment: ConfigurationEnvironment, _ problems: inout ConfigurationProblems)
        throws(ConfigurationError) -> DaemonConfiguration
    {
        let json = try ConfigurationError.readJSON(path, comments: true)
        let base = (path as NSString).deletingLastPathComponent
        var configuration = DaemonConfiguration()
        var found = ConfigurationProblems()
        configuration.read(environment.applied(to: json), baseDirectory: base.isEmpty ? "." : base, requiringAuth: true, &found)
        for problem in environment.attributed(found).all { problems.add(problem) }
        return configuration
    }
}
