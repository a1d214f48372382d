/// Which `Origin` header values may open a connection (docs/CONFIGURATION.md "Origins", rivesyncd.conf(5)
/// `auth.allowedOrigins`). With `allowedOrigins`, exactly those. Without, only the pages this
/// daemon serves itself: an `http` or `https` origin on the daemon's own port whose host is a
/// loopback one (`localhost`, `127.0.0.0/8`, `[::1]`), the listen address, or an address of
/// one of this machine's interfaces written as a literal. A host name other than `localhost`
/// is never the daemon's own by default (DNS rebinding can point any name at it), so a page on
/// a site must be listed. A request without `Origin` (not a browser) is never refused here.
/// A value: the shell reads the port and the interfaces' addresses (at start, once it listens,
/// and at each reload) and the connection core decides with it (`ConnectionSettings`).
public struct OriginPolicy: Sendable {
    /// `auth.allowedOrigins`, when configured.
    public var allowed: [String]?
    /// The listen address (`listen.host`).
    public var listenHost: String
    /// The port the daemon listens on (nil: not known yet, so only a configured list admits
    /// anything).
    public var port: Int?
    /// The numeric addresses of this machine's interfaces (lowercase, IPv6 without a zone).
    public var interfaceAddresses: Set<String>

    public init(allowed: [String]?, listenHost: String, port: Int? = nil, interfaceAddresses: Set<String> = []) {
        self.allowed = allowed
        self.listenHost = listenHost
        self.port = port
        self.interfaceAddresses = interfaceAddresses
    }

    /// Whether a connection with `origin` (nil: no header) may stay open.
    public func admits(_ origin: String?) -> Bool {
        guard let origin else { return true }
        if let allowed { return allowed.contains(origin) }
        guard let port, let (host, originPort) = Self.hostAndPort(of: origin), originPort == port else { return false }
        return Self.isLoopback(host) || host == Self.normalized(listenHost) || interfaceAddresses.contains(host)
    }

    /// The host (lowercase, an IPv6 literal without brackets) and port of a serialized origin
    /// (`scheme://host[:port]`, nothing after it); nil for anything else (`null` too).
    public static func hostAndPort(of origin: String) -> (host: String, port: Int)? {
        let lowered = origin.lowercased()
        let defaultPort: Int
        let rest: Substring
        if lowered.hasPrefix("http://") {
            (defaultPort, rest) = (80, lowered.dropFirst(7))
        } else if lowered.hasPrefix("https://") {
            (defaultPort, rest) = (443, lowered.dropFirst(8))
        } else {
            return nil
        }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else { return nil }
        let host: Substring
        let portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.lastIndex(of: ":") {
            (host, portText) = (rest[..<colon], rest[rest.index(after: colon)...])
        } else {
            (host, portText) = (rest, nil)
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// `localhost`, an IPv4 literal in 127.0.0.0/8 (four decimal parts of 0 to 255, no
    /// leading zeros), or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid = parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return false }
            return (part == "0" || !part.hasPrefix("0")) && Int(part)! <= 255
        }
        return parts.count == 4 && valid && parts[0] == "127"
    }

    /// A listen address as an origin's host would be written (lowercase, no brackets); the
    /// wildcard addresses match nothing.
    static func normalized(_ host: String) -> String {
        let bare = String(host.lowercased().filter { $0 != "[" && $0 != "]" })
        return bare == "0.0.0.0" || bare == "::" ? "\u{0}" : bare
    }
}
