import Foundation
import RiveSyncJSON
import RiveSyncProtocol
import RiveSyncServer
import RiveSyncTransport

/// One connection of an `InProcessDaemon`, with the calls of the socket tests' `TestClient`.
package struct InProcessClient: Sendable {
    package let daemon: InProcessDaemon
    package let session: SessionID

    package func send(_ message: JSONValue) { sendRaw(message.serialized()) }

    package func sendRaw(_ bytes: [UInt8]) { daemon.daemon.dispatcher.received(session, bytes: bytes, isText: true) }

    package func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    /// The connection ends from the client's side.
    package func close() { daemon.daemon.dispatcher.closed(session) }

    /// The close code once the daemon closed the connection.
    package var closeCode: UInt16? { daemon.outlet.closeCode(session) }

    /// Messages received and not yet taken.
    package var buffered: [JSONValue] { daemon.outlet.all(session) }

    /// Removes and returns every received message that matches, in order.
    package func takeAll(where matches: (JSONValue) -> Bool) -> [JSONValue] { daemon.outlet.takeAll(session, where: matches) }

    /// Removes and returns the first message that matches, waiting for it: while none is
    /// there, the daemon's queues are drained, then its clock jumps to the next timer. The
    /// timeout only detects a hang (a test elsewhere that blocks the cooperative threads
    /// stalls this loop meanwhile).
    package func next(
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
    package func closeCodeWhenClosed(seconds: Double = 120) async throws -> UInt16? {
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
    package func nextBatch(_ target: String) async throws -> JSONValue {
        try await next(where: { $0["type"] == "batch" && $0["target"]?.stringValue == target }, what: "a batch of \(target)")
    }

    /// Sends a request (with a fresh id unless it has one) and returns the reply with its id;
    /// other messages stay, in order.
    package func request(_ message: JSONValue) async throws -> JSONValue {
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
    package func reply(to message: JSONValue) async throws -> ServerMessage {
        try ServerMessage(try await request(message), types: NoTargetTypes())
    }
}
