import Foundation

/// What the adapter uses of a `URLSessionWebSocketTask`: `URLSessionTaskAdapter` forwards to
/// the real task, and a test double stands in where the real one cannot run (Linux, whose
/// libcurl has no WebSocket support).
protocol WebSocketTask: AnyObject, Sendable {
    /// Starts the handshake.
    func resume()
    /// Sends a text message; `completion` gets the error, nil once it was written.
    func send(text: String, completion: @escaping @Sendable ((any Error)?) -> Void)
    /// Asks for the next message.
    func receive(completion: @escaping @Sendable (Result<WebSocketTaskMessage, any Error>) -> Void)
    /// Sends a ping; `pong` gets nil when the pong arrived, else the error.
    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void)
    /// Sends a close frame with `code` and ends the task.
    func cancel(code: UInt16, reason: String)
}

/// A message as `URLSessionWebSocketTask.receive` gives it.
enum WebSocketTaskMessage: Sendable, Equatable {
    case text(String)
    case data(Data)
}
