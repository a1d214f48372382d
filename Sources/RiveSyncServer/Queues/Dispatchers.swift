import Dispatch
import RiveSyncCore
import RiveSyncProtocol
import RiveSyncTransport

/// The daemon's connection cores: one `Dispatcher` per transport service thread, each serving
/// the connections of its thread (a session's id says its thread). A message is decoded,
/// checked and routed on the thread that read it, under a lock no other service thread takes,
/// so two threads share no lock and no connection state per message (bench/README.md,
/// "A connection core per service thread"). What concerns every connection (the
/// configuration and tokens, the directory's changes, freshness, a cluster lease's end) goes
/// to every core; a worker's answer about a connection goes to that connection's core.
package final class Dispatchers: Sendable {
    /// The cores, by service thread.
    package let all: [Dispatcher]
    private let context: ServerContext

    /// `threads` cores over `workers` (at least one), from the configuration's tokens file.
    init(context: ServerContext, workers: [WorkerShell], threads: Int) throws(ConfigurationError) {
        let table = try context.configuration.auth.tokensFile.map { (path) throws(ConfigurationError) in
            do { return try TokenTable.read(path) } catch { throw .invalid("auth.tokensFile: \(error)") }
        }
        self.context = context
        let background = DispatchQueue(label: "rivesyncd.background")
        all = (0..<max(threads, 1)).map { index in
            Dispatcher(context: context, workers: workers, tokens: table ?? TokenTable(), index: index, background: background)
        }
        Self.hear(workers, in: self)
    }

    /// Has the workers tell the core of a connection when they answered its routed `subscribe`.
    private static func hear(_ workers: [WorkerShell], in dispatchers: Dispatchers) {
        for worker in workers {
            worker.host.sync {
                worker.subscribeAnswered = { [weak dispatchers] connection, target, paths, succeeded in
                    dispatchers?.of(connection.rawValue).post(
                        .subscribeAnswered(connection, target: target, paths: paths, succeeded: succeeded))
                }
            }
        }
    }

    /// The core of `session`'s service thread.
    package func of(_ session: SessionID) -> Dispatcher {
        all.count == 1 ? all[0] : all[WebSocketServer.serviceThread(of: session, among: all.count)]
    }

    package func opened(_ session: SessionID, info: SessionInfo) { of(session).opened(session, info: info) }

    package func received(_ session: SessionID, bytes: [UInt8], isText: Bool) {
        of(session).received(session, bytes: bytes, isText: isText)
    }

    package func closed(_ session: SessionID) { of(session).closed(session) }

    /// Waits until every core's queue has run what was posted to it before.
    package func sync() {
        for dispatcher in all { dispatcher.queue.sync {} }
    }

    /// Whether `GET /metrics` is answered (every core holds the same access).
    func metricsAccess(authorization: String?, remoteAddress: String) -> HTTPAccess {
        all[0].metricsAccess(authorization: authorization, remoteAddress: remoteAddress)
    }

    /// Changes every core's settings (see `Dispatcher.reconfigure`).
    func reconfigure(_ change: (inout ConnectionSettings) -> Void) {
        for dispatcher in all { dispatcher.reconfigure(change) }
    }

    /// SIGHUP: reads the tokens file again. On success, connections whose token is gone are
    /// closed (1008) and subscriptions the new scopes no longer allow are ended; on failure
    /// the old tokens stay.
    func reloadTokens() throws(ConfigurationError) {
        guard let path = context.configuration.auth.tokensFile else { return }
        let table = try TokenTable.read(path)
        reconfigure { $0.access.tokens = table.entries }
        context.log(.info, "tokens reloaded", [("path", path), ("tokens", "\(table.entries.count)")])
    }

    /// Posts `event` to every core.
    func post(_ event: ConnectionEvent) {
        for dispatcher in all { dispatcher.post(event) }
    }
}
