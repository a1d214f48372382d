import Foundation
import RiveSyncWebSocket

/// The adapter between a `WebSocketTask` and the seam: turns the task's callbacks into one
/// ordered stream of `WebSocketEvent`s, sends messages one at a time in call order, pings to
/// notice a dead peer, and refuses binary messages (RiveSync speaks text, PROTOCOL.md §12).
///
/// The task's delegate reports `didOpen`, `didClose` and `didComplete`; everything else comes
/// from the completions of the calls made here. The first terminal event wins; later
/// callbacks are ignored. `@unchecked Sendable`: its constants are set once in `init`, and
/// every `var` is read and written only while `lock` is held.
final class FoundationWebSocketConnection: WebSocketConnection, @unchecked Sendable {
    private enum Phase {
        case connecting, open, ended
    }

    private let task: any WebSocketTask
    private let pingInterval: Duration?
    private let events: AsyncStream<WebSocketEvent>.Continuation
    private let onEnd: @Sendable () -> Void
    private let lock = NSLock()
    // State below is guarded by `lock`.
    private var phase = Phase.connecting
    private var outgoing: [String] = []
    private var sending = false
    private var pendingClose: (code: UInt16, reason: String)?
    private var awaitingPong = false
    private var pinger: Task<Void, Never>?

    /// - Parameters:
    ///   - pingInterval: how often to ping an open connection; a ping still unanswered at the
    ///     next one ends the connection (`.closed` with no code). nil: never ping.
    ///   - onEnd: called once after the terminal event (the transport frees its session).
    init(
        task: any WebSocketTask, pingInterval: Duration?, events: AsyncStream<WebSocketEvent>.Continuation,
        onEnd: @escaping @Sendable () -> Void = {}
    ) {
        self.task = task
        self.pingInterval = pingInterval
        self.events = events
        self.onEnd = onEnd
    }

    /// Starts the handshake.
    func start() {
        task.resume()
    }

    // MARK: Delegate callbacks

    /// The handshake completed.
    func didOpen(subprotocol: String?) {
        let opened = lock.withLock { () -> Bool in
            guard phase == .connecting else { return false }
            phase = .open
            return true
        }
        guard opened else { return }
        events.yield(.opened(subprotocol: subprotocol.flatMap { $0.isEmpty ? nil : $0 }))
        receiveNext()
        sendNext()
        startPinging()
    }

    /// The peer's close frame arrived (`code` 0 when the task saw none).
    func didClose(code: Int, reason: Data?) {
        let reasonText = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
        end(.closed(code: (1...Int(UInt16.max)).contains(code) ? UInt16(code) : nil, reason: reasonText))
    }

    /// The task finished: without an open connection that is a failure to connect.
    func didComplete(error: (any Error)?) {
        let wasOpen = lock.withLock { phase == .open }
        let text = error.map { "\($0.localizedDescription)" }
        end(wasOpen ? .closed(code: nil, reason: text ?? "connection ended") : .failed(text ?? "connection ended before it opened"))
    }

    // MARK: WebSocketConnection

    func send(text: String) {
        let start = lock.withLock { () -> Bool in
            guard phase != .ended, pendingClose == nil else { return false }
            outgoing.append(text)
            return phase == .open && !sending
        }
        if start { sendNext() }
    }

    func close(code: UInt16, reason: String) {
        let now = lock.withLock { () -> Bool in
            guard phase != .ended, pendingClose == nil else { return false }
            pendingClose = (code, reason)
            return !sending && (outgoing.isEmpty || phase == .connecting)
        }
        if now { finishClosing() }
    }

    // MARK: Internals

    private func receiveNext() {
        task.receive { [self] result in
            switch result {
            case .success(.text(let text)):
                guard lock.withLock({ phase == .open }) else { return }
                events.yield(.message(Array(text.utf8)))
                receiveNext()
            case .success(.data):
                task.cancel(code: 1003, reason: "binary message")
                end(.closed(code: 1003, reason: "the server sent a binary message; RiveSync speaks text"))
            case .failure:
                // The delegate's didClose or didComplete follows with the close code or error.
                break
            }
        }
    }

    /// Sends the next queued message once the previous one was written, so messages leave in
    /// call order; a failed write ends the connection.
    private func sendNext() {
        let next = lock.withLock { () -> String? in
            guard phase == .open, !sending, !outgoing.isEmpty else { return nil }
            sending = true
            return outgoing.removeFirst()
        }
        guard let next else {
            if lock.withLock({ phase == .open && !sending && outgoing.isEmpty && pendingClose != nil }) { finishClosing() }
            return
        }
        task.send(text: next) { [self] error in
            if let error {
                task.cancel(code: 1001, reason: "")
                end(.closed(code: nil, reason: "send failed: \(error.localizedDescription)"))
                return
            }
            lock.withLock { sending = false }
            sendNext()
        }
    }

    private func finishClosing() {
        guard let close = lock.withLock({ pendingClose }) else { return }
        task.cancel(code: close.code, reason: close.reason)
        end(.closed(code: close.code, reason: close.reason))
    }

    private func startPinging() {
        guard let pingInterval else { return }
        let pinger = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: pingInterval)  // cancelled at close: the loop ends
                guard let self, !Task.isCancelled else { return }
                self.ping(every: pingInterval)
            }
        }
        lock.withLock { self.pinger = pinger }
    }

    private func ping(every interval: Duration) {
        let unanswered = lock.withLock { () -> Bool? in
            guard phase == .open else { return nil }
            defer { awaitingPong = true }
            return awaitingPong
        }
        switch unanswered {
        case nil:
            return
        case true?:
            task.cancel(code: 1001, reason: "no pong")
            end(.closed(code: nil, reason: "no pong within \(interval)"))
        case false?:
            task.sendPing { [self] error in
                if error == nil { lock.withLock { awaitingPong = false } }
            }
        }
    }

    /// Reports the terminal event once and lets go of the task.
    private func end(_ event: WebSocketEvent) {
        let first = lock.withLock { () -> Bool in
            guard phase != .ended else { return false }
            phase = .ended
            outgoing = []
            pinger?.cancel()
            pinger = nil
            return true
        }
        guard first else { return }
        events.yield(event)
        events.finish()
        onEnd()
    }
}
