import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// The bound on a request's headers (`maxHeaderBytes`): what the peer sent until its request
/// was parsed, counted by the kernel (`TCP_INFO`), is compared with it, and a request past it
/// gets HTTP 431. lws 4.1.6 itself holds at most 64 KiB of header data per request and closes
/// a request past that with no status, telling the protocol nothing: those cannot get 431.
extension ServerLoop {
    /// HTTP 431 Request Header Fields Too Large (RFC 6585 §5), not in lws' `http_status`.
    static let requestHeaderFieldsTooLarge = http_status(rawValue: 431)

    /// True when the request being handled on `wsi` came with more than `maxHeaderBytes`:
    /// the bytes received since the connection's previous request was answered (with TLS,
    /// its records too).
    func headersTooLarge(_ wsi: OpaquePointer) -> Bool {
        guard let received = Self.bytesReceived(lws_get_socket_fd(wsi)) else { return false }
        return received - min(received, receivedBeforeRequest[wsi] ?? 0) > UInt64(configuration.maxHeaderBytes)
    }

    /// Ends an HTTP transaction (keep-alive: the next request is counted from here).
    func completeTransaction(_ wsi: OpaquePointer) -> Int32 {
        if let received = Self.bytesReceived(lws_get_socket_fd(wsi)) { receivedBeforeRequest[wsi] = received }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// `tcpi_bytes_received` of a TCP socket (Linux 4.1 and later; at byte 128 of
    /// `struct tcp_info`, which Glibc's header does not declare), or nil.
    static func bytesReceived(_ fd: Int32) -> UInt64? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0, length >= 136 else { return nil }
        return info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 128, as: UInt64.self) }
    }
}
