import Foundation
import RiveSyncServer

// First of all: a write to a closed stderr or socket must fail with EPIPE, not kill us.
signal(SIGPIPE, SIG_IGN)
let log = Log()
let commandLine: DaemonCommandLine
do {
    commandLine = try DaemonCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.writeStandardError("rivesyncd: \(error)\n\(DaemonCommandLine.usage)")
    exit(64)
}
if commandLine.showHelp {
    print(DaemonCommandLine.usage, terminator: "")  // stdio: a closed stdout loses it, nothing else
    exit(0)
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
    var configuration = commandLine.configuration
    configuration.listenDescriptor = try SocketActivation.takeListeningSocket()
    daemon = try Daemon(configuration: configuration, log: log)
    supervisor = Supervisor(daemon: daemon, configurationPath: commandLine.configurationPath, log: log)
    endpoint = try supervisor.start()
} catch {
    Log.writeStandardError("rivesyncd: \(error)\n")
    exit(1)
}
Log.writeStandardError("listening on \(endpoint)\n")

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
