import Foundation

/// The client side of the WebSocket opening handshake (RFC 6455 §4.1): the upgrade request
/// and the check of the server's response header (status 101 and the `Sec-WebSocket-Accept`
/// that answers the request's key).
public enum WebSocketHandshake {
    /// What the response bytes received so far amount to.
    public enum Response: Sendable, Equatable {
        /// The header has not ended yet.
        case incomplete
        /// Status 101; the header is `headerBytes` long and any later bytes are frames.
        case accepted(headerBytes: Int)
        case rejected(String)
    }

    /// Longest response header accepted.
    public static let maxHeaderBytes = 16 * 1024

    /// The upgrade request for `path` on `host:port`; `key` is the 16 random nonce bytes.
    public static func request(host: String, port: Int, path: String, subprotocol: String?, key: [UInt8]) -> [UInt8] {
        var lines = [
            "GET \(path) HTTP/1.1", "Host: \(host):\(port)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: \(base64(key))", "Sec-WebSocket-Version: 13",
        ]
        if let subprotocol { lines.append("Sec-WebSocket-Protocol: \(subprotocol)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The GUID RFC 6455 §1.3 appends to the key.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value that answers `key` (the 16 nonce bytes).
    public static func accept(for key: [UInt8]) -> String {
        base64(SHA1.digest(Array((base64(key) + acceptGUID).utf8)))
    }

    /// Checks the response header at the start of `bytes` to a request made with `key`.
    public static func response(_ bytes: [UInt8], key: [UInt8]) -> Response {
        guard let end = headerEnd(bytes) else {
            return bytes.count > maxHeaderBytes ? .rejected("handshake: response header over \(maxHeaderBytes) bytes") : .incomplete
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0]
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1] == "101" else {
            return .rejected("handshake: expected status 101, got '\(statusLine.prefix(200))'")
        }
        let expected = accept(for: key)
        let accepts = lines.dropFirst().compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "sec-websocket-accept" else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard accepts == [expected] else {
            return .rejected("handshake: Sec-WebSocket-Accept \(accepts) does not answer the key (expected \(expected))")
        }
        return .accepted(headerBytes: end)
    }

    /// Standard base64 with padding (RFC 4648 §4).
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = 0
            for offset in 0..<3 { group = group << 8 | (offset < count ? Int(bytes[index + offset]) : 0) }
            for position in 0..<4 {
                out.append(position <= count ? alphabet[(group >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Length of the header including its terminating empty line, nil if not there yet.
    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13
        {
            return index + 1
        }
        return nil
    }
}
