import Glibc
import Synchronization

/// Reads one Redis stream in order, forever, on its own thread and its own connection:
/// `XREAD BLOCK` from the last entry delivered, reconnecting after failures. Each entry is
/// delivered exactly once and in stream order, also across reconnects (reading resumes after
/// the last entry handed to `handler`). `handler` runs on the reader's thread.
public final class RedisStreamReader: Sendable {
    /// What the reader reports: what Redis answered, nothing decided (whether the reader has
    /// caught up is its user's to tell from these).
    public enum Event: Sendable {
        /// Reading (re)started — at the start and after each failure — and the stream's last
        /// entry then was `last` (nil: the stream was empty). A busy stream never gives an empty
        /// read, so reaching `last` is how a reader under write load knows it has caught up.
        case started(last: RedisStreamID?)
        /// A read returned entries up to `upTo`: `entries` are those delivered, in stream order,
        /// each after the ones delivered before (fewer, or none, when the replication step kept
        /// some back); reading goes on after `upTo`.
        case entries([RedisStreamEntry], upTo: RedisStreamID)
        /// A `BLOCK` ended with nothing new.
        case readNothing
        /// Connecting or reading failed; the reader tries again after its retry delay.
        case failed(RedisError)
    }

    /// How the reader talks to Redis.
    public struct Settings: Sendable {
        /// Connect timeout, and how much longer than `block` a read may take.
        public var timeout: Duration = .seconds(2)
        /// How long one `XREAD` waits for new entries.
        public var block: Duration = .seconds(1)
        /// At most this many entries per `XREAD`.
        public var count = 512
        /// The connection's `CLIENT SETNAME` (what `CLIENT LIST` shows for it), if any; a
        /// Redis user without `CLIENT` reads anyway.
        public var name: String?
        /// Wait before reconnecting after a failure.
        public var retryDelay: Duration = .milliseconds(100)
        /// Runs after each read on the reader's connection, before anything is delivered, with
        /// the last entry delivered before (`after`) and what the read returned: false stops the
        /// reader for good (nothing more is delivered). A thrown error counts as a failed read.
        public var check:
            (@Sendable (_ connection: RedisConnection, _ after: RedisStreamID, _ read: [RedisStreamEntry]) throws(RedisError) -> Bool)?
        /// When set, entries are delivered only once that many replicas hold them (see
        /// `Replication`); nil: as soon as they are read.
        public var replication: Replication?

        public init() {}
    }

    /// Delivering only what replicas hold: after a read that returned entries, the reader writes
    /// `key` on its own connection (`SET key <last id read> PX 3600000`) and sends
    /// `WAIT replicas timeout`. Redis replicates in the order it runs commands, so a replica
    /// that acknowledged that write holds every entry the read returned. Fewer replicas in time
    /// is a failed read (`RedisError.replicasBehind`): nothing of it is delivered, and the
    /// reader reads the same entries again after its retry delay. A primary that refuses the
    /// write (`NOREPLICAS`, under `min-replicas-to-write`) fails the read the same way.
    public struct Replication: Sendable {
        public var replicas: Int
        public var timeout: Duration
        public var key: String
        /// Runs on the reader's connection once the replicas hold a read, and returns what of
        /// it to deliver (nil: all of it).
        public var confirmed:
            (@Sendable (_ connection: RedisConnection, _ read: [RedisStreamEntry]) throws(RedisError) -> [RedisStreamEntry])?
        /// Runs on the reader's connection when `WAIT` timed out for a read, before the read
        /// counts as failed.
        public var timedOut: (@Sendable (_ connection: RedisConnection, _ read: [RedisStreamEntry]) throws(RedisError) -> Void)?

        public init(replicas: Int, timeout: Duration, key: String) {
            self.replicas = replicas
            self.timeout = timeout
            self.key = key
        }

        /// Waits until `replicas` replicas hold everything `read` returned, and returns what of
        /// it to deliver; throws `replicasBehind` when they do not within `timeout`.
        func wait(on connection: RedisConnection, read: [RedisStreamEntry]) throws(RedisError) -> [RedisStreamEntry] {
            guard let last = read.last else { return read }
            try connection.command(["SET", RedisArgument(key), last.id.argument, "PX", 3_600_000]).expectStatus("OK")
            let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
            let acknowledged = try connection.command(["WAIT", RedisArgument(replicas), RedisArgument(Int(milliseconds))]).integer()
            guard acknowledged >= replicas else {
                try timedOut?(connection, read)
                throw .replicasBehind(acknowledged: Int(acknowledged), required: replicas)
            }
            return try confirmed?(connection, read) ?? read
        }
    }

    /// Shared by the reader's thread and `stop()`.
    private final class Control: Sendable {
        private struct State {
            var stopping = false
            var interrupter: RedisConnection.Interrupter?
        }
        private let state = Mutex(State())

        var stopping: Bool { state.withLock { $0.stopping } }

        /// Makes `interrupter` the one `stop` uses; false if stopping already.
        func register(_ interrupter: RedisConnection.Interrupter?) -> Bool {
            state.withLock { state in
                state.interrupter = interrupter
                return !state.stopping
            }
        }

        func stop() {
            state.withLock { state in
                state.stopping = true
                state.interrupter?.interrupt()
            }
        }
    }

    private let control = Control()
    private let thread = Mutex<RedisThread?>(nil)

    /// Starts reading `key` after the entry `after` (`RedisStreamID.start`: from its first entry).
    public init(
        _ endpoint: RedisEndpoint, key: String, after: RedisStreamID, settings: Settings = Settings(),
        handler: @escaping @Sendable (Event) -> Void
    ) throws(RedisError) {
        let started = try RedisThread { [control] in
            Self.run(endpoint, key: key, after: after, settings: settings, control: control, handler: handler)
        }
        thread.withLock { $0 = started }
    }

    /// Stops reading and waits for the thread (a read in progress is interrupted). No event
    /// is delivered after `stop` returns. Safe to call more than once.
    public func stop() {
        control.stop()
        thread.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    deinit { stop() }

    private static func run(
        _ endpoint: RedisEndpoint, key: String, after start: RedisStreamID, settings: Settings, control: Control,
        handler: @Sendable (Event) -> Void
    ) {
        var after = start
        var connection: RedisConnection?
        // True until the stream's last entry is looked up after the start or a failure.
        var lookUp = true
        let blockMilliseconds = Int(
            settings.block.components.seconds * 1000 + settings.block.components.attoseconds / 1_000_000_000_000_000)
        while !control.stopping {
            do {
                let current: RedisConnection
                if let connection {
                    current = connection
                } else {
                    current = try RedisConnection(endpoint, timeout: settings.timeout)
                    try current.setTimeout(settings.block + settings.timeout + (settings.replication?.timeout ?? .zero))
                    if let name = settings.name {
                        do { try current.command(["CLIENT", "SETNAME", RedisArgument(name)]) } catch  where !error.closesConnection {}
                    }
                    guard control.register(current.interrupter) else { break }
                    connection = current
                }
                if lookUp {
                    let last = try current.command(["XREVRANGE", RedisArgument(key), "+", "-", "COUNT", 1])
                    handler(.started(last: try RedisStreamEntry.entries(last).first?.id))
                    lookUp = false
                }
                let reply = try current.command([
                    "XREAD", "COUNT", RedisArgument(settings.count), "BLOCK", RedisArgument(blockMilliseconds), "STREAMS",
                    RedisArgument(key), after.argument,
                ])
                let entries = try RedisStreamEntry.readReply(reply, key: key)
                guard !control.stopping else { break }
                if let check = settings.check, try !check(current, after, entries) { break }
                let delivered = try settings.replication?.wait(on: current, read: entries) ?? entries
                guard let last = entries.last else {
                    handler(.readNothing)
                    continue
                }
                // Past every entry read, also those the replication step kept back.
                after = last.id
                handler(.entries(delivered, upTo: last.id))
            } catch {
                guard !control.stopping else { break }
                lookUp = true
                handler(.failed(error))
                if error.closesConnection || connection?.isBroken == true {
                    _ = control.register(nil)
                    connection?.close()
                    connection = nil
                }
                pause(settings.retryDelay, unless: control)
            }
        }
        _ = control.register(nil)
        connection?.close()
    }

    /// Sleeps for `delay` in short steps, returning early once the reader is stopping.
    private static func pause(_ delay: Duration, unless control: Control) {
        var left = delay
        let step = Duration.milliseconds(20)
        while left > .zero, !control.stopping {
            let slice = min(left, step)
            var time = timespec(tv_sec: Int(slice.components.seconds), tv_nsec: Int(slice.components.attoseconds / 1_000_000_000))
            _ = nanosleep(&time, nil)
            left -= slice
        }
    }
}
