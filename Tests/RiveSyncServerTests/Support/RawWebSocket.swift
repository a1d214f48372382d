import Foundation

/// A minimal blocking WebSocket client over a raw TCP socket, for tests that need a client
/// that really stops reading (our lws `TestClient` reads everything eagerly): a small
/// `SO_RCVBUF`, the HTTP upgrade with subprotocol `rivesync.v1`, masked text frames out,
/// unmasked frames in (7/16/64-bit lengths, continuation frames; ping and pong ignored; a
/// close frame ends the connection). Blocking calls: use it from a dedicated `Thread`, never
/// from async code. Every read and write has a timeout, as a hang guard only.
final class RawWebSocket {
    enum Failure: Error, CustomStringConvertible {
        case connect(Int32)
        case handshake(String)
        case closed(code: UInt16?)
        case io(Int32)
        case protocolError(String)

        var description: String {
            switch self {
            case .connect(let errno): "connect failed: errno \(errno)"
            case .handshake(let response): "handshake refused: \(response)"
            case .closed(let code): "closed (\(code.map(String.init) ?? "no code"))"
            case .io(let errno): "socket error: errno \(errno)"
            case .protocolError(let what): "protocol error: \(what)"
            }
        }
    }

    private var fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 16_384)
    static let maxMessageBytes = 16 << 20

    /// Connects to 127.0.0.1:`port` with a receive buffer of `receiveBuffer` bytes and
    /// upgrades to WebSocket, sending `headers` (CRLF-terminated lines) with the request.
    init(port: Int, receiveBuffer: Int32 = 4096, timeoutSeconds: Int = 5, headers: String = "") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.io(errno) }
        var size = receiveBuffer
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(fd)
            fd = -1
            throw Failure.connect(error)
        }
        do { try handshake(port: port, headers: headers) } catch {
            Glibc.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Closes the socket (no close handshake).
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func handshake(port: Int, headers: String) throws {
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request =
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: rivesync.v1\r\n" + headers + "\r\n"
        try write(Array(request.utf8))
        var response: [UInt8] = []
        while !response.suffix(4).elementsEqual([13, 10, 13, 10]) {
            response.append(try readBytes(1)[0])
            if response.count > 16_384 { throw Failure.handshake("response headers too long") }
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 101"), text.lowercased().contains("sec-websocket-protocol: rivesync.v1") else {
            throw Failure.handshake(text)
        }
    }

    /// Sends one text message in one masked frame.
    func send(text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    /// True when a message (or part of one) can be read without waiting.
    func readable(timeoutMilliseconds: Int32 = 0) -> Bool {
        if start < buffer.count { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, timeoutMilliseconds) > 0
    }

    /// Reads the next text or binary message (reassembling continuation frames; ping and pong
    /// are skipped). Throws `closed` on a close frame or end of stream.
    func readMessage() throws -> [UInt8] {
        var message: [UInt8] = []
        var started = false
        while true {
            let header = try readBytes(2)
            let fin = header[0] & 0x80 != 0
            let opcode = header[0] & 0x0F
            var length = UInt64(header[1] & 0x7F)
            if length == 126 {
                length = try readBytes(2).reduce(0) { $0 << 8 | UInt64($1) }
            } else if length == 127 {
                length = try readBytes(8).reduce(0) { $0 << 8 | UInt64($1) }
            }
            let mask = header[1] & 0x80 != 0 ? try readBytes(4) : nil
            guard length <= UInt64(Self.maxMessageBytes), message.count + Int(length) <= Self.maxMessageBytes else {
                throw Failure.protocolError("frame of \(length) bytes")
            }
            var payload = try readBytes(Int(length))
            if let mask { payload = payload.enumerated().map { $0.element ^ mask[$0.offset % 4] } }
            switch opcode {
            case 0x8:
                close()
                throw Failure.closed(code: payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil)
            case 0x9, 0xA:
                continue
            case 0x0:
                guard started else { throw Failure.protocolError("continuation without a first frame") }
            case 0x1, 0x2:
                guard !started else { throw Failure.protocolError("new message inside a fragmented one") }
                started = true
            default:
                throw Failure.protocolError("opcode \(opcode)")
            }
            message += payload
            if fin { return message }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count - start < count {
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            guard fd >= 0 else { throw Failure.closed(code: nil) }
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw Failure.closed(code: nil) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure.io(errno)
            }
            buffer += scratch[0..<n]
        }
        let bytes = Array(buffer[start..<start + count])
        start += count
        return bytes
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            guard fd >= 0 else { throw Failure.closed(code: nil) }
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure.io(errno)
            }
            offset += n
        }
    }
}
