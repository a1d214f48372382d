import Foundation
import RiveSyncJSON

/// What `rivesyncd`'s flags ask for.
public struct DaemonCommandLine: Sendable {
    public var configuration: DaemonConfiguration
    /// The `--config` file, re-read on SIGHUP (nil with `--demo`).
    public var configurationPath: String?
    public var showHelp = false

    public static let usage = """
        usage: rivesyncd [--demo | --config FILE] [options]

          --demo             serve the built-in demo (file 'demo': global Theme published as
                             'theme', state machines 'character' and 'lobby'), with the
                             inspector at / and the preview at /preview.html
          --config FILE      read the JSON configuration FILE
          --host ADDRESS     listen address (default 127.0.0.1)
          --port N           listen port (default 7420; 0 picks a free one, printed on stderr)
          --workers N        worker threads (default 2)
          --state-dir DIR    directory for persistent state
          --help             show this help

        """

    /// Parses the arguments (without the program name).
    public init(arguments: [String]) throws(ConfigurationError) {
        var configuration: DaemonConfiguration?
        var overrides: [(inout DaemonConfiguration) -> Void] = []
        var rest = arguments[...]
        func value(_ flag: String) throws(ConfigurationError) -> String {
            guard let next = rest.popFirst() else { throw .invalid("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                showHelp = true
            case "--demo":
                configuration = .demo()
            case "--config":
                let path = try value(argument)
                configuration = try Self.read(path)
                configurationPath = path
            case "--host":
                let host = try value(argument)
                overrides.append { $0.host = host }
            case "--port":
                let text = try value(argument)
                guard let port = Int(text), (0...65535).contains(port) else { throw .invalid("--port: expected 0...65535") }
                overrides.append { $0.port = port }
            case "--workers":
                let text = try value(argument)
                guard let workers = Int(text), (1...64).contains(workers) else { throw .invalid("--workers: expected 1...64") }
                overrides.append { $0.workers = workers }
            case "--state-dir":
                let directory = try value(argument)
                overrides.append { $0.stateDirectory = directory }
            case "--test-echo":  // test only, deliberately not in `usage` (see `EchoHandler`)
                overrides.append { $0.testEcho = true }
            default:
                throw .invalid("unknown argument '\(argument)'")
            }
        }
        var result = configuration ?? DaemonConfiguration()
        for apply in overrides { apply(&result) }
        if configuration == nil, !showHelp { throw .invalid("give --demo or --config FILE") }
        self.configuration = result
    }

    static func read(_ path: String) throws(ConfigurationError) -> DaemonConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, reason: "cannot read the file") }
        let json: JSONValue
        do {
            json = try JSONParser().parse([UInt8](data))
        } catch {
            throw .unreadable(path: path, reason: "not JSON: \(error)")
        }
        let base = (path as NSString).deletingLastPathComponent
        return try DaemonConfiguration(json: json, baseDirectory: base.isEmpty ? "." : base)
    }
}
