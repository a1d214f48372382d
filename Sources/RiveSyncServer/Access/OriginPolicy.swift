import Glibc

/// Which `Origin` header values may open a connection (docs/CONFIGURATION.md "Origins", rivesyncd.conf(5)
/// `auth.allowedOrigins`). With `allowedOrigins`, exactly those. Without, only the pages this
/// daemon serves itself: an `http` or `https` origin on the daemon's own port whose host is a
/// loopback one (`localhost`, `127.0.0.0/8`, `[::1]`), the listen address, or an address of
/// one of this machine's interfaces written as a literal. A host name other than `localhost`
/// is never the daemon's own by default (DNS rebinding can point any name at it), so a page on
/// a site must be listed. A request without `Origin` (not a browser) is never refused here.
struct OriginPolicy: Sendable {
    /// `auth.allowedOrigins`, when configured.
    let allowed: [String]?
    /// The listen address (`listen.host`).
    let listenHost: String

    /// Whether a connection with `origin` may stay open, on a daemon listening on `port` (nil:
    /// not known yet, so only a configured list admits anything).
    func admits(_ origin: String?, port: Int?) -> Bool {
        guard let origin else { return true }
        if let allowed { return allowed.contains(origin) }
        guard let port, let (host, originPort) = Self.hostAndPort(of: origin), originPort == port else { return false }
        return Self.isLoopback(host) || host == Self.normalized(listenHost) || Self.interfaceAddresses().contains(host)
    }

    /// The host (lowercase, an IPv6 literal without brackets) and port of a serialized origin
    /// (`scheme://host[:port]`, nothing after it); nil for anything else (`null` too).
    static func hostAndPort(of origin: String) -> (host: String, port: Int)? {
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

    /// `localhost`, an IPv4 literal in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// A listen address as an origin's host would be written (lowercase, no brackets); the
    /// wildcard addresses match nothing.
    static func normalized(_ host: String) -> String {
        let bare = String(host.lowercased().filter { $0 != "[" && $0 != "]" })
        return bare == "0.0.0.0" || bare == "::" ? "\u{0}" : bare
    }

    /// The port a listening socket is bound to (a socket-activated daemon's), or nil.
    static func port(ofListeningSocket fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET: return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
        case AF_INET6: return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
        default: return nil
        }
    }

    /// The numeric addresses of this machine's interfaces (IPv6 without a zone).
    static func interfaceAddresses() -> Set<String> {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: Set<String> = []
        var cursor = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            addresses.insert(String(text.prefix { $0 != "%" }).lowercased())
        }
        return addresses
    }
}
