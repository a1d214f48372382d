import Glibc
import RiveSyncCore

/// What the origin rules need of the sockets and interfaces, read by the shell.
extension OriginPolicy {
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
