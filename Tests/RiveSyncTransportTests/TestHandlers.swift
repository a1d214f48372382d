import RiveSyncTestSupport
import RiveSyncTransport

/// A server handler for tests: records events and, when `echo` is set, sends every message
/// back to its sender (from the service thread, through the normal submit API).
final class RecordingHandler: WebSocketServerHandler {
    enum Event: Equatable, Sendable {
        case opened(SessionID, SessionInfo)
        case received(SessionID, [UInt8], isText: Bool)
        case closed(SessionID)
        case overflow(SessionID)
    }

    let echo: Bool
    private let server = Locked<WebSocketServer?>(nil)
    private let log = Locked<[Event]>([])

    init(echo: Bool) { self.echo = echo }

    /// Connects the handler to its server (needed for echo).
    func attach(_ server: WebSocketServer) { self.server.withLock { $0 = server } }

    /// Drops the server reference so the two can be freed.
    func detach() { server.withLock { $0 = nil } }

    var events: [Event] { log.withLock { $0 } }

    var openedIDs: [SessionID] {
        events.compactMap { if case .opened(let id, _) = $0 { id } else { nil } }
    }

    func opened(_ id: SessionID, info: SessionInfo) { log.withLock { $0.append(.opened(id, info)) } }

    func received(_ id: SessionID, message: [UInt8], isText: Bool) {
        log.withLock { $0.append(.received(id, message, isText: isText)) }
        if echo { server.withLock { $0 }?.send(Payload(bytes: message, isText: isText), to: [id]) }
    }

    func closed(_ id: SessionID) { log.withLock { $0.append(.closed(id)) } }

    func sendQueueOverflow(_ id: SessionID, queuedBytes: Int) { log.withLock { $0.append(.overflow(id)) } }
}

/// Starts a server on 127.0.0.1, port 0, runs `body`, and always stops it.
func withServer<R>(
    _ configure: (inout WebSocketServer.Configuration) -> Void = { _ in }, echo: Bool = true,
    steering: (@Sendable (String) -> Int?)? = nil,
    _ body: (WebSocketServer, RecordingHandler) async throws -> R
) async throws -> R {
    PoolStarvation.watch()
    var configuration = WebSocketServer.Configuration()
    configure(&configuration)
    let handler = RecordingHandler(echo: echo)
    let server = WebSocketServer(configuration: configuration, handler: handler, steering: steering)
    handler.attach(server)
    try server.start()
    defer {
        server.stop()
        handler.detach()
    }
    return try await body(server, handler)
}

/// Starts a client, runs `body`, and always shuts it down.
func withClient<R>(_ body: (WebSocketClient) async throws -> R) async throws -> R {
    let client = try WebSocketClient()
    defer { client.shutdown() }
    return try await body(client)
}

/// A connection's stream gave another event than the one a test needs next.
struct UnexpectedEvent: Error, CustomStringConvertible {
    let description: String
}

/// Reads events from `stream` until one matches `stop`; returns all read, including it.
func collect(_ stream: AsyncStream<ClientEvent>, until stop: (ClientEvent) -> Bool) async throws -> [ClientEvent] {
    var events: [ClientEvent] = []
    for await event in stream {
        events.append(event)
        if stop(event) { return events }
    }
    return events
}

/// The next `.opened` of a connection, failing on anything else.
func expectOpened(_ iterator: inout AsyncStream<ClientEvent>.Iterator) async throws {
    let event = await iterator.next()
    guard case .opened = event else { throw UnexpectedEvent(description: "expected opened, got \(String(describing: event))") }
}
