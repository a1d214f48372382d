import Foundation
import RiveSyncTransport

/// What `Supervisor` needs from the daemon: adopting accepted sockets, a liveness probe, and
/// applying reloaded limits.
extension Daemon {
    /// Hands an accepted connection to the transport; false when it is not running.
    func adopt(_ connection: Int32) -> Bool {
        server.submit([.adopt(fileDescriptor: connection)])
    }

    /// One liveness round: every dispatcher's core and queue, every worker's host, then an HTTP `GET /healthz`
    /// answered by the transport's service thread on an adopted socket pair.
    /// - Returns: true when every stage answered (the transport within `timeout`, at least 1 s).
    func probe(timeout: Duration) -> Bool {
        for core in dispatcher.all { core.withCore {} }
        dispatcher.sync()
        for worker in workers { worker.host.sync {} }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { return false }
        defer { close(ends[1]) }
        guard adopt(ends[0]) else {
            close(ends[0])
            return false
        }
        var limit = timeval(tv_sec: Int(max(timeout.components.seconds, 1)), tv_usec: 0)
        setsockopt(ends[1], SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /healthz HTTP/1.1\r\nHost: watchdog\r\nConnection: close\r\n\r\n".utf8)
        guard send(ends[1], request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while response.count < 4096 {
            let count = recv(ends[1], &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[..<count]
            let text = String(decoding: response, as: UTF8.self)
            if text.hasPrefix("HTTP/1.1 200"), text.hasSuffix("\r\n\r\nok\n") { return true }
        }
        return false
    }

    /// SIGHUP: re-reads the TLS certificate and key files for new connections (with TLS only),
    /// logging the outcome; a bad pair is refused and the old one kept.
    func reloadCertificates() {
        guard context.configuration.tlsCertificate != nil else { return }
        let log = context.log
        server.submit([
            .reloadCertificates { result in
                switch result {
                case .success: log(.info, "reload: applied", [("key", "tls"), ("detail", "certificate and key re-read")])
                case .failure(let error): log(.error, "reload: certificate rejected; keeping the old one", [("error", error.detail)])
                }
            }
        ])
    }

    /// Applies the reloadable limits of `new` (the others need a restart and are kept).
    /// - Returns: every setting that differs, with whether it was applied.
    func reloadLimits(_ new: Limits) -> [(name: String, old: Int, new: Int, applied: Bool)] {
        defer {
            let limits = context.limits.withLock { $0 }
            dispatcher.reconfigure { settings in
                settings.limits = limits.connectionLimits
                settings.welcome = limits.welcome(epoch: context.epoch)
            }
            for worker in workers { worker.host.async { worker.refreshLimits() } }
        }
        return context.limits.withLock { current in
            var changes: [(name: String, old: Int, new: Int, applied: Bool)] = []
            for setting in Limits.settings {
                let (old, wanted) = (current[keyPath: setting.keyPath], new[keyPath: setting.keyPath])
                guard old != wanted else { continue }
                if setting.reloadable { current[keyPath: setting.keyPath] = wanted }
                changes.append((setting.name, old, wanted, setting.reloadable))
            }
            return changes
        }
    }
}
