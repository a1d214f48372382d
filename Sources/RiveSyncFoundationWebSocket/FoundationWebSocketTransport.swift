import Foundation
import RiveSyncWebSocket

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `WebSocketTransport` on Foundation's `URLSessionWebSocketTask`: the client's default on
/// Apple platforms, with no C dependency.
///
/// On Linux it compiles, but swift-corelibs-foundation's WebSocket support needs a libcurl
/// built with WebSockets, which Debian 12's is not: every connection there ends at once with
/// `.failed` (the client README says what is verified where).
public struct FoundationWebSocketTransport: WebSocketTransport {
    /// How often an open connection is pinged; a ping still unanswered at the next one ends
    /// the connection so the client reconnects. nil: never ping.
    public var pingInterval: Duration?
    /// Largest incoming message (`URLSessionWebSocketTask` refuses bigger ones; its own default
    /// is 1 MiB).
    public var maximumMessageSize: Int

    /// A transport pinging every `pingInterval` (20 s by default).
    public init(pingInterval: Duration? = .seconds(20), maximumMessageSize: Int = 16 * 1024 * 1024) {
        self.pingInterval = pingInterval
        self.maximumMessageSize = maximumMessageSize
    }

    public func connect(to url: String, subprotocol: String) throws -> (
        connection: any WebSocketConnection, events: AsyncStream<WebSocketEvent>
    ) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            parsed.host != nil
        else { throw WebSocketTransportError.invalidURL(url) }
        let delegate = SessionDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let task = session.webSocketTask(with: parsed, protocols: [subprotocol])
        task.maximumMessageSize = maximumMessageSize
        let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        let connection = FoundationWebSocketConnection(
            task: URLSessionTaskAdapter(task), pingInterval: pingInterval, events: continuation,
            onEnd: { session.invalidateAndCancel() })
        delegate.connection = connection
        connection.start()
        return (connection, events)
    }
}

/// Forwards a real `URLSessionWebSocketTask`. `@unchecked Sendable`: it holds only the task,
/// which URLSession lets any thread call (Foundation does not mark it `Sendable`).
final class URLSessionTaskAdapter: WebSocketTask, @unchecked Sendable {
    private let task: URLSessionWebSocketTask

    init(_ task: URLSessionWebSocketTask) {
        self.task = task
    }

    func resume() { task.resume() }

    func send(text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
        task.send(.string(text), completionHandler: completion)
    }

    func receive(completion: @escaping @Sendable (Result<WebSocketTaskMessage, any Error>) -> Void) {
        task.receive { result in
            completion(
                result.flatMap { message in
                    switch message {
                    case .string(let text): .success(.text(text))
                    case .data(let data): .success(.data(data))
                    @unknown default: .success(.data(Data()))
                    }
                })
        }
    }

    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void) {
        task.sendPing(pongReceiveHandler: pong)
    }

    func cancel(code: UInt16, reason: String) {
        task.cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code)) ?? .normalClosure, reason: Data(reason.utf8))
    }
}

/// The session's delegate: hands the task's open, close and completion to the adapter.
/// The session keeps it until `invalidateAndCancel()`, which the adapter's end triggers.
/// `@unchecked Sendable`: `adapter` is read and written only while `lock` is held.
final class SessionDelegate: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var adapter: FoundationWebSocketConnection?

    var connection: FoundationWebSocketConnection? {
        get { lock.withLock { adapter } }
        set { lock.withLock { adapter = newValue } }
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        connection?.didOpen(subprotocol: `protocol`)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode,
        reason: Data?
    ) {
        connection?.didClose(code: closeCode.rawValue, reason: reason)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        connection?.didComplete(error: error)
        connection = nil
    }
}
