#if canImport(Glibc)
import Glibc
#endif

struct SocketError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking TCP (or socketpair) client for speaking raw HTTP and WebSocket frames in tests.
/// Receives time out after 30 s as a hang guard.
final class RawSocket {
    let fd: Int32
    /// Bytes read past what a caller consumed.
    var pending: [UInt8] = []

    init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Connects to 127.0.0.1:`port`. A `receiveBufferBytes` above zero fixes the kernel receive
    /// buffer (`SO_RCVBUF`, set before connecting so that it also bounds the advertised window)
    /// instead of letting the kernel autotune it.
    convenience init(port: Int, receiveBufferBytes: Int32 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket failed") }
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
            Glibc.close(fd)
            throw SocketError(description: "connect failed: errno \(errno)")
        }
        self.init(fd: fd)
    }

    deinit { Glibc.close(fd) }

    /// Half-closes: sends FIN, keeps the socket open for reading (and reads nothing more).
    func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SocketError(description: "send failed: errno \(errno)") }
            offset += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads once; returns nil at EOF (or error/timeout).
    func readChunk() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    /// Reads and discards what has arrived, at most `limit` bytes, without waiting; returns the
    /// number of bytes read.
    func readAvailable(upTo limit: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: limit)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return max(n, 0)
    }

    /// Bytes that arrived in the kernel receive queue and are not read yet (`FIONREAD`).
    var unreadBytes: Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Reads until EOF.
    func readToEnd() -> [UInt8] {
        var all = pending
        pending = []
        while let chunk = readChunk() { all += chunk }
        return all
    }

    /// Reads until the buffered bytes contain `marker`; returns everything up to and including
    /// it and keeps the rest in `pending`.
    func read(through marker: [UInt8]) throws -> [UInt8] {
        while true {
            if let range = pending.firstRange(of: marker) {
                defer { pending.removeSubrange(..<range.upperBound) }
                return Array(pending[..<range.upperBound])
            }
            guard let chunk = readChunk() else { throw SocketError(description: "EOF before marker") }
            pending += chunk
        }
    }

    /// Reads the next server frame (unmasked), or nil at EOF.
    func readFrame() -> (opcode: UInt8, fin: Bool, payload: [UInt8])? {
        while true {
            if let (frame, used) = RawSocket.parseFrame(pending) {
                pending.removeFirst(used)
                return frame
            }
            guard let chunk = readChunk() else { return nil }
            pending += chunk
        }
    }

    static func parseFrame(_ bytes: [UInt8]) -> ((opcode: UInt8, fin: Bool, payload: [UInt8]), Int)? {
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
    static func clientFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    /// Sends a WebSocket upgrade request and reads the response head.
    @discardableResult
    func upgrade(path: String = "/", subprotocol: String? = "rivesync.v1") throws -> String {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        try send(request + "\r\n")
        return String(decoding: try read(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
    }

    /// Sends an HTTP/1.1 GET with `Connection: close` and returns the whole response.
    static func httpGet(port: Int, path: String, headers: String = "") throws -> String {
        let socket = try RawSocket(port: port)
        try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Connection: close\r\n\r\n")
        return String(decoding: socket.readToEnd(), as: UTF8.self)
    }
}

/// The close code inside a close frame's payload.
func closeCode(_ payload: [UInt8]) -> UInt16? {
    payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
}
