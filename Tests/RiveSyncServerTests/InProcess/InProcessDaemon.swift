import Foundation
import RiveSyncCore
import RiveSyncJSON

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

    /// Takes the first message for `id` (removing it), if any.
    func take(_ id: SessionID) -> JSONValue? {
        lock.withLock {
            guard var messages = received[id], !messages.isEmpty else { return nil }
            let first = messages.removeFirst()
            received[id] = messages
            return first
        }
    }

    func closeCode(_ id: SessionID) -> UInt16? { lock.withLock { closes[id] } }
}

/// A daemon in this process: its dispatcher, workers and journal, no sockets. Clients feed
/// messages straight to the dispatcher and read what it submits to the transport.
final class InProcessDaemon: @unchecked Sendable {
    let daemon: Daemon
    let outlet = RecordingOutlet()
    private var lastSession: SessionID = 0

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    init(configuration: DaemonConfiguration = .demo(), changeLogs: ((Int) -> any ChangeLog)? = nil) throws {
        daemon = try Daemon(configuration: configuration, log: Log(minimum: .error), changeLogs: changeLogs)
        daemon.context.attach(outlet)
    }

    /// A new connection (from loopback, without `Origin`).
    func connect() -> InProcessClient {
        lastSession += 1
        daemon.dispatcher.opened(lastSession, info: SessionInfo(remoteAddress: "127.0.0.1", origin: nil, path: "/"))
        return InProcessClient(daemon: self, session: lastSession)
    }
}

/// One connection of an `InProcessDaemon`.
struct InProcessClient: Sendable {
    let daemon: InProcessDaemon
    let session: SessionID

    func send(_ message: JSONValue) { sendRaw(message.serialized()) }

    func sendRaw(_ bytes: [UInt8]) { daemon.daemon.dispatcher.received(session, bytes: bytes, isText: true) }

    /// The next message the daemon sent this connection. The timeout only detects a hang: a
    /// message normally comes within milliseconds, but a test elsewhere in the suite that
    /// blocks Swift's cooperative threads (2 on CI) for seconds stalls this loop meanwhile.
    func next(what: String = "a message", seconds: Double = 120) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let message = daemon.outlet.take(session) { return message }
            try await Task.sleep(nanoseconds: 200_000)
        }
        let closed = daemon.outlet.closeCode(session).map { ", closed with \($0)" } ?? ""
        throw InProcessDaemon.Timeout(description: "no \(what) for session \(session) within \(seconds) s\(closed)")
    }

    func request(_ message: JSONValue) async throws -> JSONValue {
        send(message)
        return try await next(what: "the reply to \(message.jsonText)")
    }
}
