import BenchLoadKit
import CEpoll
import Glibc

/// The raw engine's thread: one level-triggered epoll set over the wake eventfd and every
/// subscriber socket. It owns all connection state; no other thread touches it. Each readable
/// socket gets one large `recv`, and the clock is read once per `recv` for all messages it
/// completes (`RawEventLoop+WebSocket.swift`). While it has a write plan, the wait ends when
/// the next update is due (`RawEventLoop+Writing.swift`).
final class RawEventLoop {
    /// epoll token of the wake eventfd; sockets use their slot in `connections`.
    static let wakeToken = UInt64.max
    static let receiveBytes = 256 * 1024
    static let maxEvents = 512

    let engine: RawSubscriberEngine
    private var connections: [RawConnection?] = []
    /// The slot of each collector index (they differ when the process also has lws writers).
    private var slots: [Int?] = []
    /// Updates to send from the connections, while the run lasts.
    var writing: RawSubscriberEngine.WritePlan?
    /// The one receive buffer, allocated for the life of the thread (the loop never returns).
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: receiveBytes, alignment: 16)
    /// Mask keys of the frames sent (one `getrandom` call per frame would cost more than the frame).
    private var maskKeys = SplitMix64(seed: .random(in: .min ... .max))

    init(engine: RawSubscriberEngine) { self.engine = engine }

    /// Serves events forever. The event buffer is allocated once: a Swift array passed as
    /// `&events` was copied on every wait here (seen in perf as page faults in malloc).
    func run() -> Never {
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: Self.maxEvents)
        while true {
            let count = waitForEvents(events)
            if count < 0 {
                guard errno == EINTR else { fatalError("bench-load: epoll_pwait2: \(errnoText())") }
                continue
            }
            for event in events[0..<Int(count)] {
                if event.data.u64 == Self.wakeToken {
                    openRequested()
                } else {
                    service(slot: Int(event.data.u64), events: event.events)
                }
            }
            if writing != nil { sendDue() }
        }
    }

    private func openRequested() {
        var counter: UInt64 = 0
        _ = read(engine.wake, &counter, MemoryLayout<UInt64>.size)
        for request in engine.takeRequests() { open(request) }
        if let plan = engine.takePlan() { writing = plan }
    }

    /// The open connection of collector index `index`, if it is open.
    func openConnection(index: Int) -> RawConnection? {
        guard index < slots.count, let slot = slots[index], let connection = connections[slot], connection.phase == .open else {
            return nil
        }
        return connection
    }

    /// Starts a non-blocking connect; the socket is watched for writability until it completes.
    private func open(_ request: RawSubscriberEngine.Request) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            engine.collector.handle(.closed("socket: \(errnoText())"), index: request.index)
            return
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = engine.target.address
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connectError = rc == 0 ? 0 : errno
        let connection = RawConnection(
            fd: fd, index: request.index, slot: connections.count, greeting: request.greeting,
            path: request.path ?? engine.target.path)
        connections.append(connection)
        if request.index >= slots.count { slots += Array(repeating: nil, count: request.index + 1 - slots.count) }
        slots[request.index] = connection.slot
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLOUT.rawValue, data: epoll_data_t(u64: UInt64(connection.slot)))
        if connectError != 0, connectError != EINPROGRESS {
            close(connection, "connect: \(errnoText(connectError))")
        } else if epoll_ctl(engine.epoll, EPOLL_CTL_ADD, fd, &event) != 0 {
            close(connection, "epoll_ctl: \(errnoText())")
        }
    }

    private func service(slot: Int, events: UInt32) {
        guard let connection = connections[slot] else { return }
        let failed = events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        if connection.phase == .connecting {
            guard failed || events & EPOLLOUT.rawValue != 0 else { return }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return close(connection, "connect: \(errnoText(error))") }
            startHandshake(connection)
            return
        }
        if events & EPOLLOUT.rawValue != 0 { flush(connection) }
        if connection.phase != .closed, failed || events & EPOLLIN.rawValue != 0 { receive(connection) }
    }

    /// One `recv` of up to `receiveBytes`; every message it completes is stamped with one clock reading.
    private func receive(_ connection: RawConnection) {
        let count = recv(connection.fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 {
            consume(connection, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), now: Clock.now())
        } else if count == 0 {
            close(connection, "server closed the connection (\(connection.phase))")
        } else if errno != EAGAIN, errno != EINTR {
            close(connection, "recv: \(errnoText())")
        }
    }

    /// Writes as much of the outbox as the socket takes; watches for writability while some is left.
    func flush(_ connection: RawConnection) {
        while connection.sent < connection.outbox.count {
            let offset = connection.sent
            let count = connection.outbox.withUnsafeBytes {
                send(connection.fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count >= 0 {
                connection.sent += count
            } else if errno == EAGAIN {
                break
            } else if errno != EINTR {
                return close(connection, "send: \(errnoText())")
            }
        }
        let pending = connection.sent < connection.outbox.count
        if !pending {
            connection.outbox.removeAll(keepingCapacity: true)
            connection.sent = 0
        }
        guard pending != connection.watchesWritable else { return }
        connection.watchesWritable = pending
        var event = epoll_event(
            events: EPOLLIN.rawValue | (pending ? EPOLLOUT.rawValue : 0), data: epoll_data_t(u64: UInt64(connection.slot)))
        if epoll_ctl(engine.epoll, EPOLL_CTL_MOD, connection.fd, &event) != 0 { close(connection, "epoll_ctl: \(errnoText())") }
    }

    /// The mask key of the next frame sent.
    func nextMaskKey() -> UInt32 { UInt32(truncatingIfNeeded: maskKeys.next()) }

    /// Closes the socket once and reports `reason` to the collector.
    func close(_ connection: RawConnection, _ reason: String) {
        guard connection.phase != .closed else { return }
        connection.phase = .closed
        epoll_ctl(engine.epoll, EPOLL_CTL_DEL, connection.fd, nil)
        Glibc.close(connection.fd)
        connections[connection.slot] = nil
        engine.collector.handle(.closed(reason), index: connection.index)
    }
}
