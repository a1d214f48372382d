/// Where a Redis server is and how to log in: read from a URL of the form
/// `redis://[[username]:password@]host[:port][/database]` (port 6379 and database 0 by
/// default; an IPv6 host in brackets, `redis://[::1]:6380`). Percent-escapes in the user
/// and password are decoded.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int
    public var username: String?
    public var password: String?

    public init(host: String, port: Int = 6379, database: Int = 0, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.username = username
        self.password = password
    }

    /// Parses a `redis://` URL (see the type's description).
    public init(url: String) throws(RedisError) {
        guard url.hasPrefix("redis://") else { throw .invalidURL("'\(url)' does not start with redis://") }
        var rest = Substring(url.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard let number = Int(path), number >= 0 else { throw .invalidURL("database '\(path)' is not a number") }
                database = number
            }
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let user = credentials[..<colon]
                username = user.isEmpty ? nil : try Self.unescape(user)
                password = try Self.unescape(credentials[credentials.index(after: colon)...])
            } else {
                password = try Self.unescape(credentials)
            }
        }
        var host = rest
        var port = 6379
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .invalidURL("unclosed '[' in '\(url)'") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL("unexpected '\(after)' after the host") }
                port = try Self.port(after.dropFirst())
            }
        } else if let colon = host.lastIndex(of: ":") {
            port = try Self.port(host[host.index(after: colon)...])
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw .invalidURL("no host in '\(url)'") }
        self.init(host: String(host), port: port, database: database, username: username, password: password)
    }

    /// The URL without its password (for logs).
    public var description: String {
        let login = username.map { "\($0):***@" } ?? (password == nil ? "" : ":***@")
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(login)\(shownHost):\(port)/\(database)"
    }

    private static func port(_ text: Substring) throws(RedisError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else { throw .invalidURL("port '\(text)' is not 1-65535") }
        return port
    }

    private static func unescape(_ text: Substring) throws(RedisError) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                    let value = UInt8(String(decoding: utf8[first...utf8.index(after: first)], as: UTF8.self), radix: 16)
                else { throw .invalidURL("bad percent-escape in the credentials") }
                bytes.append(value)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
