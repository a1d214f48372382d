import Foundation
import RiveSyncServer
import RiveSyncVersion

// Started as `rivesync` (the package's link to this binary): the command line, not the daemon.
runTheCommandLineWhenCalledRivesync()

// First of all: a write to a closed stderr or socket must fail with EPIPE, not kill us.
signal(SIGPIPE, SIG_IGN)

func fail(_ lines: [String], status: Int32, usage: Bool = false) -> Never {
    Log.writeStandardError(lines.map { "rivesyncd: \($0)\n" }.joined() + (usage ? "see rivesyncd --help\n" : ""))
    exit(status)
}

let commandLine: DaemonCommandLine
do {
    commandLine = try DaemonCommandLine(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.lines, status: 64, usage: true)
}
// stdout through stdio: a closed stdout loses the text, nothing else.
switch commandLine.action {
case .help:
    print(DaemonCommandLine.usage, terminator: "")
    exit(0)
case .version:
    print("rivesyncd \(RiveSyncVersion.current)")
    exit(0)
case .generateConfiguration:
    print(GeneratedConfiguration.text, terminator: "")
    exit(0)
case .completion(let shell):
    // The parser takes only a shell that has a script.
    print(DaemonCompletion.script(for: shell)!, terminator: "")
    exit(0)
case .generateToken:
    let generated = TokenGenerator()
    print(generated.tokensFileText, terminator: "")
    Log.writeStandardError(generated.tokenLine)
    exit(0)
case .checkConfiguration:
    let path = commandLine.configurationPath!
    let environment = commandLine.environment
    for setting in environment.settings { print("\(setting.variable) sets \(setting.keyPath)") }
    for name in environment.unknown {
        let guess = ConfigurationEnvironment.suggestion(for: name).map { " (did you mean \($0)?)" } ?? ""
        Log.writeStandardError("rivesyncd: warning: \(name) is no setting of rivesyncd (ignored)\(guess)\n")
    }
    let problems = Daemon.check(configurationPath: path, environment: environment)
    // A problem of the file itself (cannot be read, not JSON) already starts with its path
    // (`FILE: …` or `FILE:LINE:COLUMN: …`).
    guard problems.isEmpty else { fail(problems.map { $0.hasPrefix("\(path):") ? $0 : "\(path): \($0)" }, status: 1) }
    print("\(path): valid")
    exit(0)
case .serve:
    break
}

/// Logs why the daemon cannot start (one error line per problem, so journald records them at
/// error priority) and exits 1.
func refuseToStart(_ lines: [String], log: Log) -> Never {
    for line in lines { log(.error, "not started", [("error", line)]) }
    exit(1)
}

let configuration: DaemonConfiguration
do { configuration = try commandLine.configuration() } catch { refuseToStart(error.lines, log: Log()) }
let log = Log(minimum: configuration.logLevel, format: configuration.logFormat)
log.routeTransportLines()
for name in commandLine.environment.unknown {
    let guess = ConfigurationEnvironment.suggestion(for: name).map { [("meant", $0)] } ?? []
    log(.warning, "environment variable is no setting of rivesyncd (ignored)", [("name", name)] + guess)
}

var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
pthread_sigmask(SIG_BLOCK, &signals, nil)
raiseDescriptorLimit()

let daemon: Daemon
let supervisor: Supervisor
let endpoint: String
do {
    var running = configuration
    running.listenDescriptor = try SocketActivation.takeListeningSocket()
    if running.listenDescriptor != nil {
        running.sharesPort = false
    } else if running.sharesPort {
        // lws 4.1.6 does not set SO_REUSEPORT itself: the daemon listens and lws adopts.
        (running.listenDescriptor, running.port) = try SharedPort.listen(host: running.host, port: running.port)
    }
    daemon = try Daemon(configuration: running, log: log)
    supervisor = Supervisor(daemon: daemon, commandLine: commandLine, log: log)
    endpoint = try supervisor.start()
} catch let error as ConfigurationError {
    refuseToStart(error.lines, log: log)
} catch {
    refuseToStart(["\(error)"], log: log)
}
daemon.announceListening(on: endpoint, log: log)

while true {
    var received: Int32 = 0
    sigwait(&signals, &received)
    if received == SIGHUP {
        supervisor.reload()
        continue
    }
    log(.info, "stopping", [("signal", "\(received)")])
    supervisor.drain()
    exit(0)
}

/// Raises the soft `RLIMIT_NOFILE` to the hard one, as daemons do: every connection is a
/// descriptor, and the transport sizes its connection budget from the soft limit.
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
