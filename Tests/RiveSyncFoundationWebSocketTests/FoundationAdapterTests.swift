import Foundation
import RiveSyncTestSupport
import RiveSyncWebSocket
import XCTest

@testable import RiveSyncFoundationWebSocket

/// The Foundation transport's adapter logic against a task double: message framing and
/// order, close codes, pings, and which ends allow a reconnect. (The real
/// `URLSessionWebSocketTask` cannot connect on Linux; `FoundationTransportTests` in the client
/// tests checks that it fails cleanly there.)
final class FoundationAdapterTests: XCTestCase {
    private func makeConnection(ping: Duration? = nil) -> (FoundationWebSocketConnection, TaskDouble, EventLog) {
        let task = TaskDouble()
        let (events, continuation) = AsyncStream.makeStream(of: WebSocketEvent.self)
        let connection = FoundationWebSocketConnection(task: task, pingInterval: ping, events: continuation)
        connection.start()
        return (connection, task, EventLog(events))
    }

    func testMessagesQueuedBeforeOpenLeaveAfterItInOrderOneAtATime() async throws {
        let (connection, task, log) = makeConnection()
        for n in 0..<20 { connection.send(text: #"{"id":\#(n)}"#) }
        XCTAssertEqual(task.sent, [], "nothing leaves before the handshake")
        connection.didOpen(subprotocol: "rivesync.v1")
        try await waitUntil("20 sends") { task.sent.count == 20 }
        XCTAssertEqual(task.sent, (0..<20).map { #"{"id":\#($0)}"# })
        XCTAssertEqual(task.maxSendsInFlight, 1, "each message waits for the previous write")
        let events = try await log.first(1)
        XCTAssertEqual(events, [.opened(subprotocol: "rivesync.v1")])
        XCTAssertEqual(task.calls.first, .resume)
    }

    func testTextMessagesArriveAsUTF8InOrderAndAnEmptySubprotocolIsNone() async throws {
        let (connection, task, log) = makeConnection()
        connection.didOpen(subprotocol: "")
        for text in ["{\"type\":\"welcome\"}", "é ✓", ""] { task.deliver(.success(.text(text))) }
        let events = try await log.first(4)
        XCTAssertEqual(
            events, [.opened(subprotocol: nil), .message(Array("{\"type\":\"welcome\"}".utf8)), .message(Array("é ✓".utf8)), .message([])])
    }

    func testABinaryMessageClosesWith1003() async throws {
        let (connection, task, log) = makeConnection()
        connection.didOpen(subprotocol: nil)
        task.deliver(.success(.data(Data([1, 2, 3]))))
        let events = try await log.all()
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.last, .closed(code: 1003, reason: "the server sent a binary message; RiveSync speaks text"))
        XCTAssertEqual(task.calls.last, .cancel(code: 1003, reason: "binary message"))
    }

    func testThePeersCloseCodeReachesTheClient() async throws {
        let cases: [(Int, UInt16?)] = [(1008, 1008), (1002, 1002), (1007, 1007), (1001, 1001), (1011, 1011), (0, nil)]
        for (raw, code) in cases {
            let (connection, _, log) = makeConnection()
            connection.didOpen(subprotocol: nil)
            connection.didClose(code: raw, reason: Data("bye".utf8))
            connection.didComplete(error: nil)
            let events = try await log.all()
            XCTAssertEqual(events, [.opened(subprotocol: nil), .closed(code: code, reason: "bye")], "close \(raw)")
        }
    }

    func testAFailedHandshakeIsFailedAndALostConnectionIsClosedWithoutCode() async throws {
        let (refused, _, refusedLog) = makeConnection()
        refused.didComplete(error: TaskDouble.Failure())
        let refusedEvents = try await refusedLog.all()
        XCTAssertEqual(refusedEvents, [.failed("simulated failure")])

        let (lost, task, lostLog) = makeConnection()
        lost.didOpen(subprotocol: nil)
        task.deliver(.failure(TaskDouble.Failure()))
        lost.didComplete(error: TaskDouble.Failure())
        lost.didClose(code: 1000, reason: nil)
        let lostEvents = try await lostLog.all()
        XCTAssertEqual(
            lostEvents, [.opened(subprotocol: nil), .closed(code: nil, reason: "simulated failure")], "one terminal event, the first")
    }

    func testAFailedWriteEndsTheConnection() async throws {
        let (connection, task, log) = makeConnection()
        task.failsSends = true
        connection.didOpen(subprotocol: nil)
        connection.send(text: "{}")
        let events = try await log.all()
        XCTAssertEqual(events.last, .closed(code: nil, reason: "send failed: simulated failure"))
        connection.send(text: "after the end")
        XCTAssertEqual(task.sent, ["{}"])
    }

    func testCloseLeavesAfterTheQueuedMessages() async throws {
        let (connection, task, log) = makeConnection()
        connection.didOpen(subprotocol: nil)
        for n in 0..<5 { connection.send(text: "\(n)") }
        connection.close(code: 1000, reason: "client closed")
        connection.send(text: "after close")
        let events = try await log.all()
        XCTAssertEqual(events.last, .closed(code: 1000, reason: "client closed"))
        XCTAssertEqual(
            task.calls.filter { $0 != .resume },
            ["0", "1", "2", "3", "4"].map { .send($0) } + [.cancel(code: 1000, reason: "client closed")])
    }

    func testAnsweredPingsKeepTheConnectionAndAnUnansweredOneEndsIt() async throws {
        let (alive, aliveTask, aliveLog) = makeConnection(ping: .milliseconds(20))
        alive.didOpen(subprotocol: nil)
        try await waitUntil("4 pings") { aliveTask.pings >= 4 }
        alive.close(code: 1000, reason: "")
        let aliveEvents = try await aliveLog.all()
        XCTAssertEqual(aliveEvents, [.opened(subprotocol: nil), .closed(code: 1000, reason: "")], "answered pings never end it")

        let (silent, silentTask, silentLog) = makeConnection(ping: .milliseconds(20))
        silentTask.answersPings = false
        silent.didOpen(subprotocol: nil)
        let events = try await silentLog.all()
        XCTAssertEqual(events.count, 2)
        guard case .closed(nil, let reason) = events.last else { return XCTFail("not a close without code: \(events)") }
        XCTAssertTrue(reason.hasPrefix("no pong"), reason)
        XCTAssertEqual(silentTask.calls.last, .cancel(code: 1001, reason: "no pong"))
        XCTAssertEqual(silentTask.pings, 1, "one ping, unanswered at the next tick")
    }

    func testTheTransportRefusesURLsThatAreNotWebSocketURLs() {
        for url in ["http://127.0.0.1:7420", "127.0.0.1:7420", "ws://", ""] {
            XCTAssertThrowsError(try FoundationWebSocketTransport().connect(to: url, subprotocol: "rivesync.v1"), url) { error in
                XCTAssertEqual(error as? WebSocketTransportError, .invalidURL(url))
            }
        }
    }
}

/// Collects a connection's events in the background.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [WebSocketEvent] = []
    private var finished = false

    init(_ stream: AsyncStream<WebSocketEvent>) {
        Task {
            for await event in stream { lock.withLock { events.append(event) } }
            lock.withLock { finished = true }
        }
    }

    /// The first `count` events (waits for them).
    func first(_ count: Int) async throws -> [WebSocketEvent] {
        try await waitUntil("\(count) events") { self.lock.withLock { self.events.count >= count } }
        return lock.withLock { Array(events.prefix(count)) }
    }

    /// Every event, once the stream finished.
    func all() async throws -> [WebSocketEvent] {
        try await waitUntil("the end of the stream") { self.lock.withLock { self.finished } }
        return lock.withLock { events }
    }
}
