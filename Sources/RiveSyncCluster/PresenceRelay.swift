import Dispatch
import RiveSyncCore
import RiveSyncRedis
import Synchronization

/// How a cluster node shares presence with the others (protocol/CLUSTER.md §2.9): it appends
/// its announcements to the capped stream `<prefix>:presence` — outside the cluster's log,
/// never replayed — and hands every other node's announcement, in stream order, to `deliver`.
/// Announcements that cannot be sent are dropped (each carries a node's members in full, so
/// the next one repairs them); the reader reconnects by itself.
///
/// Threads: appends run on their own queue and connection; reads on the stream reader's.
/// `@unchecked Sendable`: its one `var`, `connection`, is touched only on `appendQueue`; the
/// rest is constants, atomics and a `Mutex`.
public final class PresenceRelay: @unchecked Sendable {
    /// Announcements kept in the stream (about; `MAXLEN ~`): a node reads only what comes
    /// after it started, so this bounds Redis's memory, not what a node learns.
    public static let streamLength = 1000

    public let settings: RedisChangeLog.Settings
    private let sent = Atomic<Int>(0)
    private let received = Atomic<Int>(0)
    /// Announcements not sent (Redis unreachable).
    private let failures = Atomic<Int>(0)
    private let appendQueue = DispatchQueue(label: "rivesyncd.cluster.presence")
    /// Touched on `appendQueue` only.
    private var connection: RedisConnection?
    private let reader = Mutex<RedisStreamReader?>(nil)

    public init(_ settings: RedisChangeLog.Settings) { self.settings = settings }

    deinit { stop() }

    /// The stream's key.
    public var key: String { "\(settings.keys.prefix):presence" }

    /// Starts reading the other nodes' announcements made from now on. `deliver` runs on the
    /// reader's thread with the sending node's name; `invalid` with why an entry was skipped.
    public func start(
        deliver: @escaping @Sendable (String, PresenceAnnouncement) -> Void, invalid: @escaping @Sendable (String) -> Void
    ) throws(RedisError) {
        let probe = try RedisConnection(settings.endpoint, timeout: settings.timeout)
        let last = try RedisStreamEntry.entries(try probe.command(["XREVRANGE", RedisArgument(key), "+", "-", "COUNT", 1]))
        probe.close()
        var readerSettings = RedisStreamReader.Settings()
        readerSettings.timeout = settings.timeout
        readerSettings.block = .milliseconds(500)
        let node = settings.node
        let started = try RedisStreamReader(settings.endpoint, key: key, after: last.first?.id ?? .start, settings: readerSettings) {
            [weak self] event in
            guard case .entries(let entries, _) = event else { return }
            for entry in entries {
                guard let sender = entry.value("n").map({ String(decoding: $0, as: UTF8.self) }), let body = entry.value("b") else {
                    invalid("entry \(entry.id): no field 'n' or 'b'")
                    continue
                }
                guard sender != node else { continue }
                self?.received.add(1, ordering: .relaxed)
                do { deliver(sender, try PresenceAnnouncementCodec.decode(body)) } catch { invalid("entry \(entry.id): \(error)") }
            }
        }
        reader.withLock { $0 = started }
    }

    /// Appends an announcement of this node (in the background; dropped when Redis does not
    /// answer). While appends wait (Redis slow or unreachable), a newer announcement of the
    /// same target replaces the one waiting, so the backlog stays one per target.
    public func publish(_ announcement: PresenceAnnouncement) {
        let slot: String
        switch announcement {
        case .members(let target, _, _): slot = "members:" + target
        case .alive: slot = "alive"
        case .hello: slot = "hello"
        }
        let body = PresenceAnnouncementCodec.encode(announcement)
        let first = pending.withLock { pending in
            if pending.bodies.updateValue(body, forKey: slot) == nil { pending.order.append(slot) }
            defer { pending.draining = true }
            return !pending.draining
        }
        if first { appendQueue.async { [self] in drain() } }
    }

    /// Announcements waiting to be appended, by target (in the order first queued).
    private struct Pending {
        var order: [String] = []
        var bodies: [String: [UInt8]] = [:]
        var draining = false
    }
    private let pending = Mutex(Pending())

    /// Appends what waits, one at a time, until nothing does (on `appendQueue`).
    private func drain() {
        while let body = pending.withLock({ pending -> [UInt8]? in
            guard !pending.order.isEmpty else {
                pending.draining = false
                return nil
            }
            return pending.bodies.removeValue(forKey: pending.order.removeFirst())
        }) {
            do throws(RedisError) {
                if connection?.isBroken ?? true { connection = try RedisConnection(settings.endpoint, timeout: settings.timeout) }
                try connection!.command([
                    "XADD", RedisArgument(key), "MAXLEN", "~", RedisArgument(Self.streamLength), "*", "v", "1", "n",
                    RedisArgument(settings.node), "b", RedisArgument(bytes: body),
                ])
                sent.add(1, ordering: .relaxed)
            } catch {
                failures.add(1, ordering: .relaxed)
                if error.closesConnection { connection = nil }
            }
        }
    }

    /// The Prometheus text of what the relay counts (protocol/CLUSTER.md §4.3).
    public func prometheusText() -> String { Self.prometheusText([(nil, self)]) }

    /// The counters of several shards' relays (CLUSTER.md §6), each series labelled `shard`
    /// (unlabelled for a nil shard), each metric's help and type once.
    public static func prometheusText(_ relays: [(shard: String?, relay: PresenceRelay)]) -> String {
        var text = ""
        let metrics: [(String, String, (PresenceRelay) -> Int)] = [
            ("sent", "Presence announcements this node appended to the presence stream.", { $0.sent.load(ordering: .relaxed) }),
            (
                "failed", "Presence announcements this node could not append (dropped; Redis unreachable).",
                { $0.failures.load(ordering: .relaxed) }
            ),
            ("received", "Presence announcements of other nodes this node read.", { $0.received.load(ordering: .relaxed) }),
        ]
        for (name, help, counter) in metrics {
            text += "# HELP rivesync_cluster_presence_\(name)_total \(help)\n# TYPE rivesync_cluster_presence_\(name)_total counter\n"
            for (shard, relay) in relays {
                text += "rivesync_cluster_presence_\(name)_total\(shard.map { "{shard=\"\($0)\"}" } ?? "") \(counter(relay))\n"
            }
        }
        return text
    }

    /// Stops reading (nothing is delivered after it returns).
    public func stop() {
        let stopping = reader.withLock { reader in
            defer { reader = nil }
            return reader
        }
        stopping?.stop()
    }
}
