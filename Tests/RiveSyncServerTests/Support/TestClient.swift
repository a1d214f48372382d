import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import RiveSyncTransport

/// A protocol client for tests on our lws transport: sends JSON, buffers every incoming
/// message in order, and waits (with a hang guard) for the next one or for one that matches.
final class TestClient: Sendable {
    /// One transport for the whole test process (lws/OpenSSL dislike many contexts).
    static let transport: WebSocketClient = {
        do { return try WebSocketClient() } catch { fatalError("transport: \(error)") }
    }()

    let connection: ClientConnection
    private let inbox = Locked(Inbox())
    private let nextID = Locked(1_000)

    struct Inbox {
        var messages: [JSONValue] = []
        var closed: UInt16?? = nil
        /// Why the connection failed before it opened (as the transport says).
        var failure: String?
    }

    typealias Timeout = TimedOut

    /// Connects to `url`; `tls` for a `wss://` one.
    init(url: String, tls: WebSocketClient.TLSOptions = .init()) throws {
        let inbox = self.inbox
        connection = try Self.transport.connect(to: url, subprotocol: "rivesync.v1", tls: tls) { event in
            switch event {
            case .message(let bytes, _):
                // Kept as a string, so a test that awaits or checks it fails showing it.
                let json = (try? JSONParser(maxDepth: 512).parse(bytes)) ?? .string("unparsable: \(String(decoding: bytes, as: UTF8.self))")
                inbox.withLock { $0.messages.append(json) }
            case .closed(let code, _):
                inbox.withLock { $0.closed = .some(code) }
            case .failed(let reason):
                inbox.withLock {
                    $0.closed = .some(nil)
                    $0.failure = reason
                }
            case .opened:
                break
            }
        }
    }

    /// Connects and says hello.
    static func connected(to daemon: DaemonProcess) async throws -> TestClient {
        let client = try TestClient(url: daemon.url)
        let welcome = try await client.request(["type": "hello", "protocol": [1]])
        guard welcome["type"] == "welcome" else { throw Timeout(what: "welcome, got \(welcome.jsonText)") }
        return client
    }

    func send(_ message: JSONValue) {
        _ = connection.send(text: message.jsonText)
    }

    func sendRaw(_ text: String) {
        _ = connection.send(text: text)
    }

    /// Sends a request with a fresh id and returns the reply with that id (other messages stay
    /// buffered, in order).
    func request(_ message: JSONValue) async throws -> JSONValue {
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        guard case .object(var members) = message else { throw Timeout(what: "an object request") }
        members.append(("id", .number(Double(id))))
        send(.object(members))
        return try await next(where: { $0["id"]?.intValue == id }, what: "reply to \(message.jsonText)")
    }

    /// The connection ended while a reply was awaited (with the close code, nil when it ended
    /// without one, and what was awaited).
    struct Closed: Error, CustomStringConvertible {
        var code: UInt16?
        var what = ""
        var failure: String?
        var description: String {
            "connection closed (\(code.map(String.init) ?? failure ?? "no close code")) while waiting for \(what)"
        }
    }

    /// Removes and returns every buffered message that matches, in order.
    func takeAll(where matches: (JSONValue) -> Bool) -> [JSONValue] {
        inbox.withLock { inbox in
            let taken = inbox.messages.filter(matches)
            inbox.messages.removeAll(where: matches)
            return taken
        }
    }

    /// Removes and returns the first buffered message that matches (waiting for it).
    func next(
        where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }, what: String = "a message",
        seconds: Double = defaultWaitSeconds
    ) async throws -> JSONValue {
        try await waitFor(what, seconds: seconds) {
            let found: JSONValue? = inbox.withLock { inbox in
                guard let index = inbox.messages.firstIndex(where: matches) else { return nil }
                return inbox.messages.remove(at: index)
            }
            if found == nil, let code = closeCode { throw Closed(code: code, what: what, failure: inbox.withLock { $0.failure }) }
            return found
        }
    }

    /// The next batch of a target.
    func nextBatch(_ target: String) async throws -> JSONValue {
        try await next(where: { $0["type"] == "batch" && $0["target"]?.stringValue == target }, what: "a batch of \(target)")
    }

    /// Messages received and not yet taken.
    var buffered: [JSONValue] { inbox.withLock { $0.messages } }

    /// The close code once the connection has ended (nil inside: ended without a code).
    var closeCode: UInt16?? { inbox.withLock { $0.closed } }

    func close() { _ = connection.close() }
}
