/// A parsed `ws://` or `wss://` URL.
public struct WebSocketURL: Sendable, Hashable {
    /// True for `wss://`.
    public let isSecure: Bool
    /// Host name or IP literal (IPv6 without brackets).
    public let host: String
    /// Port (default 80 for ws, 443 for wss).
    public let port: Int
    /// Path including any query string; at least "/".
    public let path: String

    /// Parses `text`, or returns nil when it is not a valid ws/wss URL.
    public init?(_ text: String) {
        let rest: Substring
        if text.hasPrefix("ws://") {
            isSecure = false
            rest = text.dropFirst(5)
        } else if text.hasPrefix("wss://") {
            isSecure = true
            rest = text.dropFirst(6)
        } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let tail = rest.dropFirst(authority.count)
        path = tail.isEmpty ? "/" : (tail.first == "?" ? "/" + tail : String(tail))
        var hostPart = authority
        var portPart: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { return nil }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else { return nil }
        host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else { return nil }
            self.port = port
        } else {
            port = isSecure ? 443 : 80
        }
    }
}
