import BenchLoadKit
import RiveSyncTransport

/// One raw subscriber connection's state. Owned by the `RawEventLoop` thread.
final class RawConnection {
    enum Phase { case connecting, handshaking, open, closed }

    let fd: Int32
    /// The connection's index in the `Collector`.
    let index: Int
    /// Its place in the loop's table and its epoll token.
    let slot: Int
    let greeting: [Payload]
    /// The path (and query) of its upgrade request.
    let path: String
    var phase = Phase.connecting
    /// Response bytes received before the handshake completed.
    var handshake: [UInt8] = []
    /// The nonce of the upgrade request, which `Sec-WebSocket-Accept` must answer.
    var handshakeKey: [UInt8] = []
    var parser = WebSocketFrameParser()
    /// Bytes to send; `sent` of them have been.
    var outbox: [UInt8] = []
    var sent = 0
    /// True while the socket is registered for EPOLLOUT (it starts so, for the connect).
    var watchesWritable = true

    init(fd: Int32, index: Int, slot: Int, greeting: [Payload], path: String) {
        self.fd = fd
        self.index = index
        self.slot = slot
        self.greeting = greeting
        self.path = path
    }
}

/// The WebSocket side of the raw engine: upgrade request and response, client frames out,
/// server frames in.
extension RawEventLoop {
    /// Sends the upgrade request once the TCP connect has completed.
    func startHandshake(_ connection: RawConnection) {
        let key = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let target = engine.target
        connection.phase = .handshaking
        connection.handshakeKey = key
        connection.outbox += WebSocketHandshake.request(
            host: target.host, port: target.port, path: connection.path, subprotocol: target.subprotocol, key: key)
        flush(connection)
    }

    /// Handles the bytes of one `recv`, all received at `now`.
    func consume(_ connection: RawConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
        guard connection.phase == .handshaking else { return frames(connection, bytes, now: now) }
        connection.handshake.append(contentsOf: bytes)
        switch WebSocketHandshake.response(connection.handshake, key: connection.handshakeKey) {
        case .incomplete:
            return
        case .rejected(let reason):
            close(connection, reason)
        case .accepted(let headerBytes):
            let rest = Array(connection.handshake[headerBytes...])
            connection.handshake = []
            connection.phase = .open
            engine.collector.handle(.opened, index: connection.index)
            for payload in connection.greeting {
                payload.withUnsafeBytes {
                    WebSocketFrameEncoder.appendMaskedFrame(
                        opcode: payload.isText ? .text : .binary, payload: $0, maskKey: nextMaskKey(), to: &connection.outbox)
                }
            }
            flush(connection)
            if connection.phase == .open, !rest.isEmpty { rest.withUnsafeBytes { frames(connection, $0, now: now) } }
        }
    }

    /// Parses server frames: messages go to the collector, pings are answered, a close frame
    /// is echoed and ends the connection, a protocol error drops it.
    private func frames(_ connection: RawConnection, _ bytes: UnsafeRawBufferPointer, now: UInt64) {
        let collector = engine.collector
        let index = connection.index
        var ending: String?
        connection.parser.feed(bytes) { event in
            switch event {
            case .message(let message, _):
                collector.receive(message, receivedAt: now, index: index)
            case .ping(let payload):
                WebSocketFrameEncoder.appendMaskedFrame(
                    opcode: .pong, payload: payload, maskKey: nextMaskKey(), to: &connection.outbox)
            case .pong:
                break
            case .close(let code, let reason):
                let echo: [UInt8] = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
                echo.withUnsafeBytes {
                    WebSocketFrameEncoder.appendMaskedFrame(
                        opcode: .close, payload: $0, maskKey: nextMaskKey(), to: &connection.outbox)
                }
                ending = "closed \(code.map(String.init) ?? "-") \(reason)"
            case .failure(let reason):
                ending = "protocol error: \(reason)"
            }
        }
        if !connection.outbox.isEmpty { flush(connection) }
        if let ending { close(connection, ending) }
    }
}
