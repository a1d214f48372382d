#if canImport(Glibc)
    import Foundation
    import Glibc

    /// The tests' one raw client: a blocking TCP (or socketpair) socket for speaking HTTP and
    /// WebSocket frames byte by byte, and for a client that really stops reading (a small
    /// `SO_RCVBUF`; the library clients read everything eagerly). Masked frames out, unmasked
    /// frames in (7/16/64-bit lengths). Reads and writes time out (30 s unless told) as a hang
    /// guard only. Blocking: use it from a dedicated `Thread` when async code must go on.
    public final class RawSocket {
        public enum Failure: Error, CustomStringConvertible, Equatable {
            case connect(Int32)
            case handshake(String)
            case closed(code: UInt16?)
            case io(Int32)
            case protocolError(String)

            public var description: String {
                switch self {
                case .connect(let errno): "connect failed: errno \(errno)"
                case .handshake(let response): "handshake refused: \(response)"
                case .closed(let code): "closed (\(code.map(String.init) ?? "no code"))"
                case .io(let errno): "socket error: errno \(errno)"
                case .protocolError(let what): "protocol error: \(what)"
                }
            }
        }

        public private(set) var fd: Int32
        /// Bytes read past what a caller consumed.
        public var pending: [UInt8] = []
        /// The receive buffer, reused (a fresh 64 KiB per read cost a busy reader real CPU).
        private var scratch = [UInt8](repeating: 0, count: 65536)
        /// The largest message `readMessage` accepts.
        public static let maxMessageBytes = 16 << 20

        /// Wraps a connected descriptor (a socketpair's end, say); reads and writes time out after
        /// `timeoutSeconds`.
        public init(fd: Int32, timeoutSeconds: Int = 30) {
            self.fd = fd
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        /// Connects to 127.0.0.1:`port`. A `receiveBufferBytes` above zero fixes the kernel receive
        /// buffer (`SO_RCVBUF`, set before connecting so that it also bounds the advertised window)
        /// instead of letting the kernel autotune it.
        public convenience init(port: Int, receiveBufferBytes: Int32 = 0, timeoutSeconds: Int = 30) throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure.io(errno) }
            if receiveBufferBytes > 0 {
                var size = receiveBufferBytes
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else {
                let error = errno
                Glibc.close(fd)
                throw Failure.connect(error)
            }
            self.init(fd: fd, timeoutSeconds: timeoutSeconds)
        }

        /// Connects and upgrades to WebSocket with subprotocol `rivesync.v1`, sending `headers`
        /// (CRLF-terminated lines) with the request; `handshake` unless the answer is a 101 that
        /// chose the subprotocol.
        public static func webSocket(port: Int, receiveBufferBytes: Int32 = 0, timeoutSeconds: Int = 30, headers: String = "") throws
            -> RawSocket
        {
            let socket = try RawSocket(port: port, receiveBufferBytes: receiveBufferBytes, timeoutSeconds: timeoutSeconds)
            let response = try socket.upgrade(headers: headers)
            guard response.hasPrefix("HTTP/1.1 101"), response.lowercased().contains("sec-websocket-protocol: rivesync.v1") else {
                throw Failure.handshake(response)
            }
            return socket
        }

        deinit { close() }

        /// Closes the socket (no close handshake).
        public func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }

        /// Half-closes: sends FIN, keeps the socket open for reading (and reads nothing more).
        public func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

        public func send(_ bytes: [UInt8]) throws {
            var offset = 0
            while offset < bytes.count {
                guard fd >= 0 else { throw Failure.closed(code: nil) }
                let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw Failure.io(errno) }
                offset += n
            }
        }

        public func send(_ text: String) throws { try send(Array(text.utf8)) }

        /// Sends one text message in one masked frame.
        public func send(text: String) throws { try send(Self.clientFrame(opcode: 1, payload: Array(text.utf8))) }

        /// Reads once; returns nil at EOF (or error/timeout).
        public func readChunk() -> [UInt8]? { try? receive() }  // nil is the answer for every way a read ends

        /// Reads once: the bytes, or `closed` at end of stream, or `io` (a timeout is `EAGAIN`).
        private func receive() throws -> [UInt8] {
            while true {
                guard fd >= 0 else { throw Failure.closed(code: nil) }
                let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 { return Array(scratch[0..<n]) }
                if n == 0 { throw Failure.closed(code: nil) }
                if errno != EINTR { throw Failure.io(errno) }
            }
        }

        /// Reads and discards what has arrived, at most `limit` bytes, without waiting; returns the
        /// number of bytes read.
        public func readAvailable(upTo limit: Int) -> Int {
            var buffer = [UInt8](repeating: 0, count: limit)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            return max(n, 0)
        }

        /// Bytes that arrived in the kernel receive queue and are not read yet (`FIONREAD`).
        public var unreadBytes: Int {
            var count: Int32 = 0
            return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
        }

        /// True when a message (or part of one) can be read without waiting longer than
        /// `timeoutMilliseconds`.
        public func readable(timeoutMilliseconds: Int32 = 0) -> Bool {
            if !pending.isEmpty { return true }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, timeoutMilliseconds) > 0
        }

        /// Reads until EOF.
        public func readToEnd() -> [UInt8] {
            var all = pending
            pending = []
            while let chunk = readChunk() { all += chunk }
            return all
        }

        /// Reads until the buffered bytes contain `marker`; returns everything up to and including
        /// it and keeps the rest in `pending`.
        public func read(through marker: [UInt8]) throws -> [UInt8] {
            while true {
                if let range = pending.firstRange(of: marker) {
                    defer { pending.removeSubrange(..<range.upperBound) }
                    return Array(pending[..<range.upperBound])
                }
                if pending.count > 65_536 { throw Failure.protocolError("no \(marker) in the first 64 KiB") }
                pending += try receive()
            }
        }

        /// Reads the next server frame (unmasked), or nil at EOF.
        public func readFrame() -> (opcode: UInt8, fin: Bool, payload: [UInt8])? { try? nextFrame() }  // nil: the stream ended

        /// The next frame; `closed`/`io` when the stream ends first.
        private func nextFrame() throws -> (opcode: UInt8, fin: Bool, payload: [UInt8]) {
            while true {
                if let (frame, used) = RawSocket.parseFrame(pending) {
                    pending.removeFirst(used)
                    return frame
                }
                if pending.count > Self.maxMessageBytes + 14 { throw Failure.protocolError("a frame over \(Self.maxMessageBytes) bytes") }
                pending += try receive()
            }
        }

        /// Reads the next text or binary message (reassembling continuation frames; ping and pong
        /// are skipped). Throws `closed` with its code on a close frame (and closes the socket),
        /// or at end of stream.
        public func readMessage() throws -> [UInt8] {
            var message: [UInt8] = []
            var started = false
            while true {
                let frame = try nextFrame()
                switch frame.opcode {
                case 0x8:
                    close()
                    throw Failure.closed(code: closeCode(frame.payload))
                case 0x9, 0xA:
                    continue
                case 0x0:
                    guard started else { throw Failure.protocolError("continuation without a first frame") }
                case 0x1, 0x2:
                    guard !started else { throw Failure.protocolError("new message inside a fragmented one") }
                    started = true
                default:
                    throw Failure.protocolError("opcode \(frame.opcode)")
                }
                message += frame.payload
                guard message.count <= Self.maxMessageBytes else {
                    throw Failure.protocolError("a message over \(Self.maxMessageBytes) bytes")
                }
                if frame.fin { return message }
            }
        }

        /// One frame at the start of `bytes` (a server's: a mask, if any, is not applied) and the
        /// bytes it used, or nil while it is incomplete.
        public static func parseFrame(_ bytes: [UInt8]) -> ((opcode: UInt8, fin: Bool, payload: [UInt8]), Int)? {
            guard bytes.count >= 2 else { return nil }
            var length = Int(bytes[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard bytes.count >= 4 else { return nil }
                length = Int(bytes[2]) << 8 | Int(bytes[3])
                offset = 4
            } else if length == 127 {
                guard bytes.count >= 10 else { return nil }
                length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard bytes.count >= offset + length else { return nil }
            return ((bytes[0] & 0x0F, bytes[0] & 0x80 != 0, Array(bytes[offset..<offset + length])), offset + length)
        }

        /// A masked client frame.
        public static func clientFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
            var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
            if payload.count < 126 {
                frame.append(0x80 | UInt8(payload.count))
            } else if payload.count <= 0xFFFF {
                frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            } else {
                frame.append(0x80 | 127)
                frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
            }
            let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            return frame
        }

        /// Sends a WebSocket upgrade request (with `headers`, CRLF-terminated lines) and reads the
        /// response head.
        @discardableResult
        public func upgrade(path: String = "/", subprotocol: String? = "rivesync.v1", headers: String = "") throws -> String {
            try sendUpgradeRequest(path: path, subprotocol: subprotocol, headers: headers)
            return String(decoding: try read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
        }

        /// Sends a WebSocket upgrade request only (for a test that reads the answer its own way).
        public func sendUpgradeRequest(path: String = "/", subprotocol: String? = "rivesync.v1", headers: String = "") throws {
            var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
            try send(request + headers + "\r\n")
        }

        /// Sends an HTTP/1.1 GET with `Connection: close` and returns the whole response.
        public static func httpGet(port: Int, path: String, headers: String = "") throws -> String {
            let socket = try RawSocket(port: port)
            try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
            return String(decoding: socket.readToEnd(), as: UTF8.self)
        }
    }

    /// The close code inside a close frame's payload.
    public func closeCode(_ payload: [UInt8]) -> UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }
#endif
