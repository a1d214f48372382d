import Glibc

/// `listen.sharePort`: a listening socket with `SO_REUSEPORT`, so that several daemons (cluster
/// nodes on one machine) listen on one host and port and the kernel spreads connections over
/// them. The daemon accepts on it and hands each connection to lws, as for an inherited socket.
public enum SharedPort {
    /// Binds an IPv4 `host` and `port` (0: a free one) and listens; returns the socket and the
    /// bound port.
    public static func listen(host: String, port: Int) throws(ConfigurationError) -> (descriptor: Int32, port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalid("listen.sharePort: needs an IPv4 listen address, not '\(host)'")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .invalid("listen: socket failed (errno \(errno))") }
        var on: Int32 = 1
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
                    && setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
                    && bind(descriptor, raw, length) == 0 && Glibc.listen(descriptor, 511) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .invalid("listen: cannot bind \(host):\(port) with SO_REUSEPORT: \(reason)")
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }
}
