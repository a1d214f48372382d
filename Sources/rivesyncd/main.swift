import Foundation
import RiveSyncServer

let log = Log()
let commandLine: DaemonCommandLine
do {
    commandLine = try DaemonCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("rivesyncd: \(error)\n\(DaemonCommandLine.usage)".utf8))
    exit(64)
}
if commandLine.showHelp {
    FileHandle.standardOutput.write(Data(DaemonCommandLine.usage.utf8))
    exit(0)
}

var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
pthread_sigmask(SIG_BLOCK, &signals, nil)
signal(SIGPIPE, SIG_IGN)

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
    FileHandle.standardError.write(Data("rivesyncd: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardError.write(Data("listening on \(endpoint)\n".utf8))

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
