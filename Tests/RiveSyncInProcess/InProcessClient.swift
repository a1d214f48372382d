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

    /// Removes and returns the first message that matches, waiting for it as `waitFor` says.
    package func next(
        where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }, what: String = "a message", seconds: Double = 120
    ) async throws -> JSONValue {
        try await waitFor(what, seconds: seconds) {
            if let message = daemon.outlet.take(session, where: matches) { return message }
            if let code = closeCode {
                throw InProcessDaemon.Timeout(description: "session \(session) closed with \(code) while waiting for \(what)")
            }
            return nil
        }
    }

    /// The close code, once the daemon has closed the connection (waiting as `waitFor` says).
    package func closeCodeWhenClosed(seconds: Double = 120) async throws -> UInt16? {
        try await waitFor("the close of session \(session)", seconds: seconds) { closeCode }
    }

    /// Polls `found` until it returns a value: while it finds nothing, the daemon's queues are
    /// drained, then its clock jumps to the next timer. The hang guard is `seconds` of the wall
    /// clock and as much of the daemon's, which moves only when this loop finds the daemon idle
    /// (the wall clock alone once no timer is left to move it). A loaded machine, or tests
    /// elsewhere that hold the cooperative threads, slow this loop down but cannot fail it. With
    /// the wall clock alone, a wait for a presence message due 1/60 s later on the daemon's clock
    /// gave up after 30 s in a full parallel run (a test of 0.2 s alone that took 73 s there).
    private func waitFor<T>(_ what: String, seconds: Double, _ found: () throws -> T?) async throws -> T {
        let start = daemon.clock.now()
        let deadline = Date().addingTimeInterval(seconds)
        var misses = 0
        while true {
            if let value = try found() { return value }
            misses += 1
            if misses.isMultiple(of: InProcessDaemon.missesBeforeIdle) {
                daemon.drain()
                if let value = try found() { return value }
                let fired = daemon.clock.fireNext()
                if Date() >= deadline, !fired || daemon.clock.now() - start >= UInt64(seconds * 1e9) {
                    throw InProcessDaemon.Timeout(
                        description: "no \(what) for session \(session) within \(seconds) s, on the wall clock and the daemon's")
                }
                if fired { continue }
            }
            try await Task.sleep(nanoseconds: 100_000)
        }
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
