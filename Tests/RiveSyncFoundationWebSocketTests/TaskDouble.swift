import Foundation

@testable import RiveSyncFoundationWebSocket

/// A `URLSessionWebSocketTask` stand-in: records what the adapter asks of it, completes sends
/// on another thread, hands out messages when the test delivers them, and answers pings only
/// when told to.
final class TaskDouble: WebSocketTask, @unchecked Sendable {
    enum Call: Equatable {
        case resume
        case send(String)
        case ping
        case cancel(code: UInt16, reason: String)
    }

    struct Failure: Error, LocalizedError {
        var errorDescription: String? { "simulated failure" }
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var receivers: [@Sendable (Result<WebSocketTaskMessage, any Error>) -> Void] = []
    private var inbox: [Result<WebSocketTaskMessage, any Error>] = []
    private var sendsInFlight = 0
    private(set) var maxSendsInFlight = 0
    var answersPings = true
    var failsSends = false

    var calls: [Call] { lock.withLock { recorded } }
    var sent: [String] { calls.compactMap { if case .send(let text) = $0 { text } else { nil } } }

    func resume() { lock.withLock { recorded.append(.resume) } }

    func send(text: String, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let fail = lock.withLock { () -> Bool in
            recorded.append(.send(text))
            sendsInFlight += 1
            maxSendsInFlight = max(maxSendsInFlight, sendsInFlight)
            return failsSends
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { [self] in
            lock.withLock { sendsInFlight -= 1 }
            completion(fail ? Failure() : nil)
        }
    }

    func receive(completion: @escaping @Sendable (Result<WebSocketTaskMessage, any Error>) -> Void) {
        let ready = lock.withLock { () -> Result<WebSocketTaskMessage, any Error>? in
            if inbox.isEmpty {
                receivers.append(completion)
                return nil
            }
            return inbox.removeFirst()
        }
        if let ready { completion(ready) }
    }

    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void) {
        let answer = lock.withLock { () -> Bool in
            recorded.append(.ping)
            return answersPings
        }
        if answer { DispatchQueue.global().async { pong(nil) } }
    }

    func cancel(code: UInt16, reason: String) { lock.withLock { recorded.append(.cancel(code: code, reason: reason)) } }

    /// Delivers a message (or a receive failure) to the adapter's pending `receive`.
    func deliver(_ result: Result<WebSocketTaskMessage, any Error>) {
        let receiver = lock.withLock { () -> (@Sendable (Result<WebSocketTaskMessage, any Error>) -> Void)? in
            if receivers.isEmpty {
                inbox.append(result)
                return nil
            }
            return receivers.removeFirst()
        }
        receiver?(result)
    }

    var pings: Int { calls.filter { $0 == .ping }.count }
}
