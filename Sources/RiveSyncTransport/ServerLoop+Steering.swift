import CWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Steering (`WebSocketServer.init(steering:)`): with several service threads, the listening
/// thread keeps each accepted plain socket to itself until the request line has arrived, reads
/// it without taking it off the socket (`MSG_PEEK`), asks `steering` which thread serves the
/// request's target, and hands the socket there (or adopts it itself). lws 4.1.6 cannot move a
/// connection once it owns it, so the choice is made before: lws then reads the request as
/// usual, on the thread that serves it.
///
/// A pending socket is admitted (counted toward the connection limits) at accept, like any
/// other; its place goes with it to the thread that adopts it, and is given back when it is
/// closed while pending: its peer closed or failed, it sent no complete request line within
/// `handshakeTimeoutSeconds`, or the server stops.
final class PendingSocket {
    /// The peer's address, as counted in `ConnectionCounts`.
    let address: String
    /// Its libev watchers (readable, deadline, retry), freed with it.
    let watch: UnsafeMutablePointer<rs_watch_t>

    init(address: String) {
        self.address = address
        watch = .allocate(capacity: 1)
        watch.initialize(to: rs_watch_t())
    }

    deinit { watch.deallocate() }
}

extension ServerLoop {
    /// How long a socket whose request line is incomplete waits before it is looked at again.
    static let steeringRetrySeconds = 0.02

    /// `FILTER_NETWORK_CONNECTION` on a steering thread: admits the socket and keeps a
    /// duplicate of it pending (lws closes its own: true). False when lws should keep the
    /// socket after all (admitted; no descriptor left for a duplicate).
    func holdsForSteering(_ fd: Int32) -> Bool {
        guard admits(acceptedSocket: fd) else { return true }
        guard let eventLoop, let address = admitting else { return false }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return false }
        admitting = nil
        let pending = PendingSocket(address: address)
        pendingSockets[copy] = pending
        pending.watch.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        rs_watch_start(eventLoop, pending.watch, copy, Double(configuration.handshakeTimeoutSeconds)) { watch, event in
            guard let watch else { return }
            let loop = Unmanaged<ServerLoop>.fromOpaque(watch.pointee.owner).takeUnretainedValue()
            loop.pendingEvent(watch.pointee.fd, deadline: event == Int32(RS_WATCH_DEADLINE))
        }
        return true
    }

    /// A pending socket is readable, its retry is due, or its time is up.
    private func pendingEvent(_ fd: Int32, deadline: Bool) {
        guard !deadline else { return dropPending(fd) }
        switch peekRequestTarget(fd) {
        case .target(let target):
            let thread = steering?(target).flatMap { (0..<threads).contains($0) ? $0 : nil }
            if thread != nil { metrics.connectionsSteered.wrappingAdd(1, ordering: .relaxed) }
            route(fd, to: thread)
        case .unsteerable:
            route(fd, to: nil)
        case .incomplete where Self.peerStoppedSending(fd):
            dropPending(fd)
        case .incomplete:
            if let pending = pendingSockets[fd], let eventLoop {
                rs_watch_wait(eventLoop, pending.watch, Self.steeringRetrySeconds)
            }
        case .waiting:
            break
        case .gone:
            dropPending(fd)
        }
    }

    /// What a look at a pending socket found.
    enum Peek: Equatable {
        /// The request line is complete: its target (`/path?query`).
        case target(String)
        /// Not a request line that can be read (not HTTP, or longer than the header limit):
        /// lws answers it as usual, wherever it goes.
        case unsteerable
        /// Part of the line is there.
        case incomplete
        /// Nothing new to read.
        case waiting
        /// The peer closed or the socket failed.
        case gone
    }

    /// Reads the socket's first bytes without taking them off it.
    private func peekRequestTarget(_ fd: Int32) -> Peek {
        let limit = configuration.maxHeaderBytes
        if peekBuffer.count < limit { peekBuffer = [UInt8](repeating: 0, count: limit) }
        let count = peekBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, Int32(MSG_PEEK | MSG_DONTWAIT)) }
        if count == 0 { return .gone }
        if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .waiting : .gone }
        return Self.requestTarget(peekBuffer[..<count], full: count >= limit)
    }

    /// Whether the peer shut down its side (a look with `MSG_PEEK` still finds the bytes it
    /// sent before, never the end of the stream behind them).
    static func peerStoppedSending(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: pollPeerHangUp, revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & (pollPeerHangUp | Int16(POLLHUP | POLLERR)) != 0
    }

    /// Linux's `POLLRDHUP` (glibc declares it for `_GNU_SOURCE` only, which Swift's Glibc is not).
    static let pollPeerHangUp: Int16 = 0x2000

    /// The target of the request line at the start of `bytes` ("GET /?x=y HTTP/1.1"), or why
    /// there is none yet. `full`: no more bytes can be looked at.
    static func requestTarget(_ bytes: ArraySlice<UInt8>, full: Bool) -> Peek {
        // A method is upper-case letters: anything else is no HTTP request (TLS, garbage).
        guard let first = bytes.first, (65...90).contains(first) else { return .unsteerable }
        guard let end = bytes.firstIndex(of: 10) else { return full ? .unsteerable : .incomplete }
        let line = bytes[bytes.startIndex..<end].split(separator: 32, omittingEmptySubsequences: false)
        guard line.count == 3, line[1].first == 47 else { return .unsteerable }
        return .target(String(decoding: line[1], as: UTF8.self))
    }

    /// Hands a pending socket to service thread `thread` (nil: the next in turn), or adopts it
    /// here when that is this thread or the hand-off fails.
    private func route(_ fd: Int32, to thread: Int?) {
        guard let pending = forgetPending(fd) else { return }
        if handOff?(fd, pending.address, thread) == true { return }
        adopt(fd, admitted: pending.address)
    }

    /// Closes a pending socket and gives its place back.
    private func dropPending(_ fd: Int32) {
        guard let pending = forgetPending(fd) else { return }
        Glibc.close(fd)
        connectionCounts.release(pending.address)
    }

    /// Stops watching a pending socket; nil when it is not pending.
    private func forgetPending(_ fd: Int32) -> PendingSocket? {
        guard let pending = pendingSockets.removeValue(forKey: fd) else { return nil }
        if let eventLoop { rs_watch_stop(eventLoop, pending.watch) }
        return pending
    }

    /// The server stops: every pending socket is closed.
    func dropPendingSockets() {
        for fd in Array(pendingSockets.keys) { dropPending(fd) }
    }
}
