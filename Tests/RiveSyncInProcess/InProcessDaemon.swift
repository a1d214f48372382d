import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import RiveSyncServer
import RiveSyncTransport

/// The whole daemon in this process — its dispatcher, workers and change logs (in memory unless
/// the configuration names a state directory) — on a `ManualClock`, with no sockets. Clients
/// feed messages straight to the dispatcher and read what it hands the transport. While a
/// client waits and nothing comes for a while, the daemon's queues are drained and the clock
/// jumps to its next timer: time passes only when the daemon has nothing else to do.
/// `@unchecked Sendable`: its `var`s (the last session and request ids) are read and written
/// only while `sessions` is held; the rest is constants.
package final class InProcessDaemon: @unchecked Sendable {
    package let daemon: Daemon
    package let outlet = RecordingOutlet()
    package let clock = ManualClock()
    private let sessions = NSLock()
    private var lastSession: SessionID = 0
    private var lastRequest = 1_000

    package struct Timeout: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    package init(configuration: DaemonConfiguration = .demo(), changeLogs: ((Int) -> any ChangeLog)? = nil) throws {
        daemon = try Daemon(configuration: configuration, log: Log(minimum: .error), changeLogs: changeLogs, clock: clock, hosting: .queues)
        daemon.context.attach(outlet)
    }

    /// The daemon `rivesyncd` with these arguments would serve (`--config path`, `--demo`, …),
    /// in this process.
    package convenience init(arguments: [String]) throws {
        try self.init(configuration: try DaemonCommandLine(arguments: arguments).configuration())
    }

    /// A new connection (from loopback, without `Origin`).
    package func connect() -> InProcessClient {
        let session = newSession()
        daemon.dispatcher.opened(session, info: SessionInfo(remoteAddress: "127.0.0.1", origin: nil, path: "/"))
        return InProcessClient(daemon: self, session: session)
    }

    /// A new connection whose messages and close go to `receiver` as the daemon sends them
    /// (instead of waiting to be taken).
    package func connect(receiving receiver: @escaping @Sendable (RecordingOutlet.Delivery) -> Void) -> InProcessClient {
        let session = newSession()
        outlet.deliver(session, to: receiver)
        daemon.dispatcher.opened(session, info: SessionInfo(remoteAddress: "127.0.0.1", origin: nil, path: "/"))
        return InProcessClient(daemon: self, session: session)
    }

    private func newSession() -> SessionID {
        sessions.withLock {
            lastSession += 1
            return lastSession
        }
    }

    /// A new connection that said `hello` (with `token` and `client`, if given) and got `welcome`.
    package func connected(token: String? = nil, client: String? = nil) async throws -> InProcessClient {
        let connection = connect()
        var hello: [(String, JSONValue)] = [("type", "hello"), ("protocol", [1])]
        if let token { hello.append(("token", .string(token))) }
        if let client { hello.append(("client", .string(client))) }
        let welcome = try await connection.request(.object(hello))
        guard welcome["type"] == "welcome" else { throw Timeout(description: "welcome, got \(welcome.jsonText)") }
        return connection
    }

    /// A fresh request id.
    package func nextRequestID() -> Int {
        sessions.withLock {
            lastRequest += 1
            return lastRequest
        }
    }

    /// The daemon's own metrics as `/metrics` shows them (without the transport's and the
    /// process's), once what was handed to it has run.
    package func metricsText() -> String {
        drain()
        return daemon.context.metrics.prometheusText()
    }

    /// Polls of a waiting client that find nothing before it drains the daemon's queues and
    /// lets time pass (draining blocks a thread of the pool: not on every poll).
    package static let missesBeforeIdle = 20

    /// Waits until the dispatcher and every worker have run what was handed to them (twice
    /// around: a worker's answer may hand the dispatcher more).
    package func drain() {
        for _ in 0..<2 {
            daemon.dispatcher.sync()
            for worker in daemon.workers { worker.host.sync {} }
        }
    }
}

/// Runs `body` with the daemon `rivesyncd` with these arguments would serve, in this process
/// (the in-process form of `withDaemon`).
package func withInProcessDaemon<T>(_ arguments: [String], _ body: (InProcessDaemon) async throws -> T) async throws -> T {
    try await body(try InProcessDaemon(arguments: arguments))
}
