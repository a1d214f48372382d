import BenchLoadKit
import CEpoll
import Glibc
import RiveSyncTransport
import Synchronization

/// Subscriber connections on non-blocking TCP sockets, all served by one thread blocked in
/// `epoll_pwait2` (`--engine raw`). `connect` and `startWriting` may be called from any thread:
/// they queue the request and wake the loop through an eventfd; sockets and connection state
/// live only on the loop's thread (`RawEventLoop`). With `--rooms`, the subscribers also write
/// (`RawEventLoop+Writing.swift`).
final class RawSubscriberEngine: Sendable {
    /// A connection to open: its collector index, the messages it sends once open, and the
    /// path of its upgrade request (nil: the URL's).
    struct Request: Sendable {
        let index: Int
        let greeting: [Payload]
        let path: String?
    }

    /// Where every connection goes and what its upgrade request names.
    struct Target: Sendable {
        let address: sockaddr_in
        let host: String
        let port: Int
        let path: String
        let subprotocol: String?
    }

    /// What the subscribers send once the run starts: one encoder per connection (in
    /// collector index order), all paced by one open-loop pacer whose writer `w` is
    /// connection `order[w]`.
    struct WritePlan: Sendable {
        var encoders: [UpdateEncoder]
        var order: [Int]
        var pacer: RoundRobinPacer
        /// Updates sent so far (those due on a connection that had closed are not).
        var sent = 0

        /// Takes the next send if it is due by `now`: the collector index of the connection
        /// that makes it, and its seq.
        mutating func take(dueBy now: UInt64) -> (index: Int, seq: Int)? {
            guard let due = pacer.nextDue, due <= now else { return nil }
            let (writer, seq) = pacer.take()
            return (order[writer], seq)
        }

        /// Appends update `seq` of connection `index`, stamped with the clock now, as a masked frame.
        mutating func appendFrame(index: Int, seq: Int, maskKey: UInt32, to out: inout [UInt8]) {
            let record = Record(writer: encoders[index].writer, seq: seq, sentNanoseconds: Clock.now())
            encoders[index].appendFrame(record, maskKey: maskKey, to: &out)
        }
    }

    let target: Target
    let collector: Collector
    let epoll: Int32
    /// An eventfd registered in `epoll`: written when requests are queued.
    let wake: Int32
    private let requests = Mutex<[Request]>([])
    private let plan = Mutex<WritePlan?>(nil)
    /// Updates the loop has sent (written once its pacer has run out).
    private let written = Mutex<Int?>(nil)

    /// Resolves `url` (a `ws://` URL, IPv4) and starts the loop thread.
    init(url: WebSocketURL, subprotocol: String?, collector: Collector) throws(RawEngineError) {
        guard !url.isSecure else { throw RawEngineError("the raw engine speaks ws:// only") }
        guard let address = Self.resolve(url.host, port: url.port) else { throw RawEngineError("cannot resolve \(url.host) (IPv4)") }
        target = Target(address: address, host: url.host, port: url.port, path: url.path, subprotocol: subprotocol)
        self.collector = collector
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard epoll >= 0, wake >= 0 else { throw RawEngineError("epoll/eventfd: \(errnoText())") }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: RawEventLoop.wakeToken))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0 else { throw RawEngineError("epoll_ctl: \(errnoText())") }
        try Self.startThread { [self] in RawEventLoop(engine: self).run() }
    }

    /// Queues a connection; its events reach the collector under `index`. `path`: its
    /// upgrade request's path and query instead of the URL's.
    func connect(index: Int, greeting: [Payload], path: String? = nil) {
        requests.withLock { $0.append(Request(index: index, greeting: greeting, path: path)) }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// Has the loop send updates from its connections from now on (once per process).
    func startWriting(_ plan: WritePlan) {
        self.plan.withLock { $0 = plan }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// The queued write plan, if any (loop thread).
    func takePlan() -> WritePlan? {
        plan.withLock { queued in
            defer { queued = nil }
            return queued
        }
    }

    /// Records how many updates the loop sent (loop thread, when its pacer has run out).
    func finishWriting(sent: Int) {
        written.withLock { $0 = sent }
    }

    /// How many updates the loop sent; nil while it is still sending.
    func sentCount() -> Int? {
        written.withLock { $0 }
    }

    /// The queued requests, emptying the queue (loop thread).
    func takeRequests() -> [Request] {
        requests.withLock { queued in
            defer { queued = [] }
            return queued
        }
    }

    private static func resolve(_ host: String, port: Int) -> sockaddr_in? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list, let raw = first.pointee.ai_addr else { return nil }
        defer { freeaddrinfo(list) }
        var address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    /// Runs `body` on a new detached pthread (the loop never returns; the process exits).
    private static func startThread(_ body: @escaping @Sendable () -> Void) throws(RawEngineError) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw RawEngineError("pthread_create returned \(rc)")
        }
        pthread_detach(thread)
    }
}

/// Why the raw engine could not start.
struct RawEngineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `strerror(errno)`.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
