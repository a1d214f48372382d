import Foundation
import RiveSyncServer
import RiveSyncVersion

func fail(_ lines: [String], status: Int32, usage: Bool = false) -> Never {
    let text = lines.map { "rivesyncd: \($0)\n" }.joined() + (usage ? "see rivesyncd --help\n" : "")
    FileHandle.standardError.write(Data(text.utf8))
    exit(status)
}

let commandLine: DaemonCommandLine
do {
    commandLine = try DaemonCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.lines, status: 64, usage: true)
}
switch commandLine.action {
case .help:
    FileHandle.standardOutput.write(Data(DaemonCommandLine.usage.utf8))
    exit(0)
case .version:
    FileHandle.standardOutput.write(Data("rivesyncd \(RiveSyncVersion.current)\n".utf8))
    exit(0)
case .checkConfiguration:
    let path = commandLine.configurationPath!
    let problems = Daemon.check(configurationPath: path)
    guard problems.isEmpty else { fail(problems.map { "\(path): \($0)" }, status: 1) }
    FileHandle.standardOutput.write(Data("\(path): valid\n".utf8))
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
let log = Log(minimum: configuration.logLevel)
log.routeTransportLines()

var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
pthread_sigmask(SIG_BLOCK, &signals, nil)
signal(SIGPIPE, SIG_IGN)

let daemon: Daemon
let supervisor: Supervisor
let endpoint: String
do {
    var running = configuration
    running.listenDescriptor = try SocketActivation.takeListeningSocket()
    daemon = try Daemon(configuration: running, log: log)
    supervisor = Supervisor(daemon: daemon, commandLine: commandLine, log: log)
    endpoint = try supervisor.start()
} catch let error as ConfigurationError {
    refuseToStart(error.lines, log: log)
} catch {
    refuseToStart(["\(error)"], log: log)
}
log.announce("listening on \(endpoint)")

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
