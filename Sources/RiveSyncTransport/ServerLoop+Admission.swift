import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Who gets a connection: every accepted socket counts from `accept` — before its HTTP
/// request or WebSocket handshake — toward `maxConnections` and `maxConnectionsPerAddress`,
/// and the total never passes what the file-descriptor limit can hold. A socket past a limit
/// gets `HTTP/1.1 503` (plain ports) and is closed at once, so lws' listener never meets
/// `accept() = EMFILE`: lws 4.1.6 logs it and polls again at once, a busy loop for as long as
/// the descriptors stay used.
extension ServerLoop {
    /// Descriptors kept free for everything that is not a connection (journals, state files,
    /// lws' own pipes, the standard streams): an eighth of the limit, at least 32.
    static func reservedDescriptors(limit: Int) -> Int { max(32, limit / 8) }

    /// `maxConnections`, lowered so that connections plus the reserve fit `RLIMIT_NOFILE`.
    static func connectionBudget(maxConnections: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return maxConnections }
        let descriptors = Int(clamping: limit.rlim_cur)
        return max(1, min(maxConnections, descriptors - reservedDescriptors(limit: descriptors)))
    }

    /// `FILTER_NETWORK_CONNECTION`: admits the accepted socket `fd` (true) or answers 503
    /// (false; lws then closes it).
    /// The counts are the server's (`ConnectionCounts`, shared by its service threads).
    func admits(acceptedSocket fd: Int32) -> Bool {
        // A socket admitted before whose wsi lws never created gives its place back.
        if let stale = admitting {
            admitting = nil
            connectionCounts.release(stale)
        }
        let address = Self.peerAddress(ofSocket: fd)
        let refusal =
            stopping
            ? nil
            : connectionCounts.reserve(
                address, budget: connectionBudget, perAddress: configuration.maxConnectionsPerAddress)
        if stopping || refusal != nil {
            metrics.connectionsRejected.wrappingAdd(1, ordering: .relaxed)
            if let refusal, configuration.tlsCertificatePath == nil {
                Self.sendServiceUnavailable(
                    fd, reason: refusal == .full ? "too many connections" : "too many connections from this address")
            }
            return false
        }
        admitting = address
        return true
    }

    /// `WSI_CREATE`: the connection being admitted is this wsi.
    func created(_ wsi: OpaquePointer) {
        guard let address = admitting else { return }
        admitting = nil
        connections[wsi] = address
    }

    /// `WSI_DESTROY`: a counted connection is gone.
    func destroyed(_ wsi: OpaquePointer) {
        guard let address = connections.removeValue(forKey: wsi) else { return }
        connectionCounts.release(address)
    }

    /// `Command.adopt`: hands a socket accepted elsewhere to lws, counted like an accepted one
    /// (closed at once when it does not fit).
    func adopt(_ fd: Int32) {
        guard admits(acceptedSocket: fd), let address = admitting else {
            Glibc.close(fd)
            return
        }
        admitting = nil
        adopt(fd, admitted: address)
    }

    /// Hands lws a socket admitted before (steered here, `ServerLoop+Steering`), whose place
    /// in the counts it takes over; a shutdown that began since refuses it.
    func adopt(_ fd: Int32, admitted address: String) {
        if stopping {
            metrics.connectionsRejected.wrappingAdd(1, ordering: .relaxed)
            connectionCounts.release(address)
            Glibc.close(fd)
            return
        }
        if let stale = admitting { connectionCounts.release(stale) }
        admitting = address
        if lws_adopt_socket_vhost(lws_get_vhost_by_name(context, "default"), fd) == nil {
            if let address = admitting { connectionCounts.release(address) }
            admitting = nil
            TransportLog.log(.warning, "rivesync: could not adopt fd \(fd)")
        }
    }

    /// Closes the sockets of adoptions that arrived after the loop stopped (and gives back the
    /// places of those admitted already), so that no descriptor outlives the server.
    func closeSockets(of undrained: [Input]) {
        for input in undrained {
            switch input {
            case .command(.adopt(let fd)):
                Glibc.close(fd)
            case .adoptAdmitted(let fd, let address):
                Glibc.close(fd)
                connectionCounts.release(address)
            default:
                break
            }
        }
    }

    /// Writes a complete 503 response without blocking (a full socket buffer loses it; the
    /// connection is closed either way).
    static func sendServiceUnavailable(_ fd: Int32, reason: String) {
        let body = reason + "\n"
        let response =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\nRetry-After: 1\r\n\r\n" + body
        _ = Array(response.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }

    /// The numeric peer address of a connected socket ("" if unknown), as `peerAddress(_:)`
    /// gives it for a wsi.
    static func peerAddress(ofSocket fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let ok = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getpeername(fd, address, &length) == 0
                    && getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        guard ok else { return "" }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("::ffff:") ? String(text.dropFirst(7)) : text
    }
}
