/// Where a Redis server is and how to log in: read from a URL of the form
/// `redis://[[username]:password@]host[:port][/database]` (port 6379 and database 0 by
/// default; an IPv6 host in brackets, `redis://[::1]:6380`), or — a primary that Redis
/// Sentinel watches — `redis-sentinel://[[username]:password@]host[:port][,host[:port]…]/name[/database]`
/// (each Sentinel's port 26379 by default; `name` is the primary's name in Sentinel's
/// configuration; the credentials are the primary's, Sentinels are asked without any).
/// Percent-escapes in the user and password are decoded.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The server (for a Sentinel endpoint, the first Sentinel: the primary is looked up on
    /// each connect, see `RedisConnection`).
    public var host: String
    public var port: Int
    public var database: Int
    public var username: String?
    public var password: String?
    /// The Sentinels to ask where the primary is, in the order they are asked; empty for a
    /// `redis://` endpoint.
    public var sentinels: [Address] = []
    /// The primary's name in Sentinel's configuration (Sentinel endpoints only).
    public var primaryName: String?

    /// A host and port.
    public struct Address: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    public init(host: String, port: Int = 6379, database: Int = 0, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.username = username
        self.password = password
    }

    /// The primary `primaryName` that `sentinels` watch (at least one Sentinel).
    public init(
        sentinels: [Address], primaryName: String, database: Int = 0, username: String? = nil, password: String? = nil
    ) {
        self.init(
            host: sentinels.first?.host ?? "", port: sentinels.first?.port ?? 26379, database: database, username: username,
            password: password)
        self.sentinels = sentinels
        self.primaryName = primaryName
    }

    /// True when the primary is looked up through Sentinels.
    public var usesSentinels: Bool { !sentinels.isEmpty }

    /// Parses a `redis://` or `redis-sentinel://` URL (see the type's description).
    public init(url: String) throws(RedisError) {
        let sentinel = url.hasPrefix("redis-sentinel://")
        guard sentinel || url.hasPrefix("redis://") else {
            throw .invalidURL("'\(url)' does not start with redis:// or redis-sentinel://")
        }
        var rest = Substring(url.dropFirst(sentinel ? "redis-sentinel://".count : "redis://".count))
        var database = 0
        var primaryName: String?
        if let slash = rest.firstIndex(of: "/") {
            var path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if sentinel {
                let name = path.prefix { $0 != "/" }
                guard !name.isEmpty else { throw .invalidURL("no primary name after the Sentinels in '\(url)'") }
                primaryName = String(name)
                path = path.dropFirst(name.count).drop { $0 == "/" }
            }
            if !path.isEmpty {
                guard let number = Int(path), number >= 0 else { throw .invalidURL("database '\(path)' is not a number") }
                database = number
            }
        }
        if sentinel, primaryName == nil { throw .invalidURL("no primary name after the Sentinels in '\(url)'") }
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
        guard let primaryName else {
            let address = try Self.address(rest, defaultPort: 6379, url: url)
            self.init(host: address.host, port: address.port, database: database, username: username, password: password)
            return
        }
        let sentinels = try rest.split(separator: ",", omittingEmptySubsequences: false).map { (text) throws(RedisError) in
            try Self.address(text, defaultPort: 26379, url: url)
        }
        self.init(sentinels: sentinels, primaryName: primaryName, database: database, username: username, password: password)
    }

    /// The URL without its password (for logs).
    public var description: String {
        let login = username.map { "\($0):***@" } ?? (password == nil ? "" : ":***@")
        func shown(_ host: String, _ port: Int) -> String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
        guard let primaryName, usesSentinels else { return "redis://\(login)\(shown(host, port))/\(database)" }
        let list = sentinels.map { shown($0.host, $0.port) }.joined(separator: ",")
        return "redis-sentinel://\(login)\(list)/\(primaryName)/\(database)"
    }

    /// `host[:port]` or `[v6 host][:port]`.
    private static func address(_ text: Substring, defaultPort: Int, url: String) throws(RedisError) -> Address {
        var host = text
        var port = defaultPort
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
        return Address(host: String(host), port: port)
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
