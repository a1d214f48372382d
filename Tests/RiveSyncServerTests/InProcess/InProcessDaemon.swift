import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol

@testable import RiveSyncServer
@testable import RiveSyncTransport

/// The transport side of an in-process daemon: records every message the daemon submits per
/// session (decoded), the close codes, and answers the queue sizes a test sets (to drive
/// back-pressure without a slow socket).
final class RecordingOutlet: TransportOutlet, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [SessionID: [JSONValue]] = [:]
    private var closes: [SessionID: UInt16] = [:]
    private var queued: [SessionID: Int] = [:]

    func submit(_ commands: [WebSocketServer.Command]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        for command in commands {
            switch command {
            case .send(let payload, let ids):
                let bytes = payload.withUnsafeBytes { Array($0) }
                let json = (try? JSONParser().parse(bytes)) ?? .string("undecodable: \(String(decoding: bytes, as: UTF8.self))")
                for id in ids where closes[id] == nil { received[id, default: []].append(json) }
            case .close(let id, let code, _):
                if closes[id] == nil { closes[id] = code }
            default:
                break
            }
        }
        return true
    }

    func queuedBytes(_ id: SessionID) -> Int? { lock.withLock { queued[id] ?? 0 } }
    var totalQueuedBytes: Int { lock.withLock { queued.values.reduce(0, +) } }

    /// Pretends `bytes` are waiting to be written to `id`.
    func setQueued(_ bytes: Int, for id: SessionID) { lock.withLock { queued[id] = bytes } }

    /// Takes the first message for `id` that matches (removing it), if any.
    func take(_ id: SessionID, where matches: (JSONValue) -> Bool = { _ in true }) -> JSONValue? {
        lock.withLock {
            guard let index = received[id]?.firstIndex(where: matches) else { return nil }
            return received[id]!.remove(at: index)
        }
    }

    /// Takes every message for `id` that matches, in order.
    func takeAll(_ id: SessionID, where matches: (JSONValue) -> Bool) -> [JSONValue] {
        lock.withLock {
            let taken = received[id]?.filter(matches) ?? []
            received[id]?.removeAll(where: matches)
            return taken
        }
    }

    /// Every message for `id` not taken yet.
    func all(_ id: SessionID) -> [JSONValue] { lock.withLock { received[id] ?? [] } }

    func closeCode(_ id: SessionID) -> UInt16? { lock.withLock { closes[id] } }
}

/// The whole daemon in this process — its dispatcher, workers and change logs (in memory unless
/// the configuration names a state directory) — on a `ManualClock`, with no sockets. Clients
/// feed messages straight to the dispatcher and read what it hands the transport. While a
/// client waits and nothing comes for a while, the daemon's queues are drained and the clock
/// jumps to its next timer: time passes only when the daemon has nothing else to do.
final class InProcessDaemon: @unchecked Sendable {
    let daemon: Daemon
    let outlet = RecordingOutlet()
    let clock = ManualClock()
    private let sessions = NSLock()
    private var lastSession: SessionID = 0
    private var lastRequest = 1_000

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    init(configuration: DaemonConfiguration = .demo(), changeLogs: ((Int) -> any ChangeLog)? = nil) throws {
        daemon = try Daemon(configuration: configuration, log: Log(minimum: .error), changeLogs: changeLogs, clock: clock)
        daemon.context.attach(outlet)
    }

    /// The daemon `rivesyncd` with these arguments would serve (`--config path`, `--demo`, …),
    /// in this process.
    convenience init(arguments: [String]) throws {
        try self.init(configuration: try DaemonCommandLine(arguments: arguments).configuration())
    }

    /// A new connection (from loopback, without `Origin`).
    func connect() -> InProcessClient {
        let session = sessions.withLock {
            lastSession += 1
            return lastSession
        }
        daemon.dispatcher.opened(session, info: SessionInfo(remoteAddress: "127.0.0.1", origin: nil, path: "/"))
        return InProcessClient(daemon: self, session: session)
    }

    /// A new connection that said `hello` (with `token` and `client`, if given) and got `welcome`.
    func connected(token: String? = nil, client: String? = nil) async throws -> InProcessClient {
        let connection = connect()
        var hello: [(String, JSONValue)] = [("type", "hello"), ("protocol", [1])]
        if let token { hello.append(("token", .string(token))) }
        if let client { hello.append(("client", .string(client))) }
        let welcome = try await connection.request(.object(hello))
        guard welcome["type"] == "welcome" else { throw Timeout(description: "welcome, got \(welcome.jsonText)") }
        return connection
    }

    /// A fresh request id.
    func nextRequestID() -> Int {
        sessions.withLock {
            lastRequest += 1
            return lastRequest
        }
    }

    /// The daemon's own metrics as `/metrics` shows them (without the transport's and the
    /// process's), once what was handed to it has run.
    func metricsText() -> String {
        drain()
        return daemon.context.metrics.prometheusText()
    }

    /// Polls of a waiting client that find nothing before it drains the daemon's queues and
    /// lets time pass (draining blocks a thread of the pool: not on every poll).
    static let missesBeforeIdle = 20

    /// Waits until the dispatcher and every worker have run what was handed to them (twice
    /// around: a worker's answer may hand the dispatcher more).
    func drain() {
        for _ in 0..<2 {
            daemon.dispatcher.queue.sync {}
            for worker in daemon.workers { worker.queue.sync {} }
        }
    }
}

/// One connection of an `InProcessDaemon`, with the calls of the socket tests' `TestClient`.
struct InProcessClient: Sendable {
    let daemon: InProcessDaemon
    let session: SessionID

    func send(_ message: JSONValue) { sendRaw(message.serialized()) }

    func sendRaw(_ bytes: [UInt8]) { daemon.daemon.dispatcher.received(session, bytes: bytes, isText: true) }

    func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    /// The connection ends from the client's side.
    func close() { daemon.daemon.dispatcher.closed(session) }

    /// The close code once the daemon closed the connection.
    var closeCode: UInt16? { daemon.outlet.closeCode(session) }

    /// Messages received and not yet taken.
    var buffered: [JSONValue] { daemon.outlet.all(session) }

    /// Removes and returns every received message that matches, in order.
    func takeAll(where matches: (JSONValue) -> Bool) -> [JSONValue] { daemon.outlet.takeAll(session, where: matches) }

    /// Removes and returns the first message that matches, waiting for it: while none is
    /// there, the daemon's queues are drained, then its clock jumps to the next timer. The
    /// timeout only detects a hang (a test elsewhere that blocks the cooperative threads
    /// stalls this loop meanwhile).
    func next(
        where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }, what: String = "a message", seconds: Double = 120
    ) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(seconds)
        var misses = 0
        while Date() < deadline {
            if let message = daemon.outlet.take(session, where: matches) { return message }
            if let code = closeCode {
                throw InProcessDaemon.Timeout(description: "session \(session) closed with \(code) while waiting for \(what)")
            }
            misses += 1
            if misses.isMultiple(of: InProcessDaemon.missesBeforeIdle) {
                daemon.drain()
                if let message = daemon.outlet.take(session, where: matches) { return message }
                if daemon.clock.fireNext() { continue }
            }
            try await Task.sleep(nanoseconds: 100_000)
        }
        throw InProcessDaemon.Timeout(description: "no \(what) for session \(session) within \(seconds) s")
    }

    /// The close code, once the daemon has closed the connection (waiting as `next` does).
    func closeCodeWhenClosed(seconds: Double = 120) async throws -> UInt16? {
        let deadline = Date().addingTimeInterval(seconds)
        var misses = 0
        while Date() < deadline {
            if let code = closeCode { return code }
            misses += 1
            if misses.isMultiple(of: InProcessDaemon.missesBeforeIdle) {
                daemon.drain()
                if let code = closeCode { return code }
                if daemon.clock.fireNext() { continue }
            }
            try await Task.sleep(nanoseconds: 100_000)
        }
        throw InProcessDaemon.Timeout(description: "session \(session) was not closed within \(seconds) s")
    }

    /// The next batch of a target.
    func nextBatch(_ target: String) async throws -> JSONValue {
        try await next(where: { $0["type"] == "batch" && $0["target"]?.stringValue == target }, what: "a batch of \(target)")
    }

    /// Sends a request (with a fresh id unless it has one) and returns the reply with its id;
    /// other messages stay, in order.
    func request(_ message: JSONValue) async throws -> JSONValue {
        guard case .object(var members) = message else { throw InProcessDaemon.Timeout(description: "an object request") }
        let id: JSONValue
        if let given = message["id"] {
            id = given
        } else {
            id = .number(Double(daemon.nextRequestID()))
            members.append(("id", id))
        }
        send(.object(members))
        return try await next(where: { $0["id"] == id }, what: "the reply to \(message.jsonText)")
    }

    /// Sends a request and returns its reply as a `ServerMessage` (replies that carry no
    /// target's values: the decoder follows no target).
    func reply(to message: JSONValue) async throws -> ServerMessage {
        try ServerMessage(try await request(message), types: NoTargetTypes())
    }
}

/// Runs `body` with the daemon `rivesyncd` with these arguments would serve, in this process
/// (the in-process form of `withDaemon`).
func withInProcessDaemon<T>(_ arguments: [String], _ body: (InProcessDaemon) async throws -> T) async throws -> T {
    try await body(try InProcessDaemon(arguments: arguments))
}
