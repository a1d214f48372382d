import Dispatch
import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncRedis
import Synchronization

/// The change log of a cluster node (protocol/CLUSTER.md §2): every node's records go into one
/// Redis stream through the fencing append script, and every node commits what it reads back
/// from the stream, in stream order, on its worker's queue. A node's own records are committed
/// with their ticket — so their requests are answered — only while its lease is valid; every
/// other entry is committed without one and applies the same way.
///
/// Before `startReplicating` the log commits each proposal at once, in the same step, without
/// Redis: that is how every node applies its configured files and state identically before the
/// stream (the configuration's changes need an answer in the same step).
///
/// Threads: `append` and everything delivered run on the worker's queue; appends run on
/// their own queue and connection, lease renewals on theirs, reads on the stream reader's.
public final class RedisChangeLog: ChangeLog, @unchecked Sendable {
    /// How the node reaches the cluster.
    public struct Settings: Sendable {
        public var endpoint: RedisEndpoint
        public var keys: ClusterKeys
        public var node: String
        public var lease: Duration
        public var timeout: Duration
        /// Records between compactions: every node compacts at the same entries, those whose
        /// record count in the whole log is a multiple of it (so the cluster must agree on it).
        public var snapshotEvery: Int
        /// Replicas that must hold an entry before any node applies it — so before it is
        /// acked (`WAIT`, CLUSTER.md §3.6); 0: applied as soon as the primary has it.
        public var waitForReplicas: Int
        /// How long one `WAIT` may take; longer is a failed read of the log.
        public var waitTimeout: Duration

        public init(
            endpoint: RedisEndpoint, keys: ClusterKeys, node: String, lease: Duration, timeout: Duration, snapshotEvery: Int,
            waitForReplicas: Int = 0, waitTimeout: Duration = .seconds(1)
        ) {
            self.endpoint = endpoint
            self.keys = keys
            self.node = node
            self.lease = lease
            self.timeout = timeout
            self.snapshotEvery = max(1, snapshotEvery)
            self.waitForReplicas = max(0, waitForReplicas)
            self.waitTimeout = waitTimeout
        }
    }

    public let settings: Settings
    private let newEpoch: @Sendable () -> String
    /// The cluster's epoch (the same on every node).
    public let epoch: String
    /// This node's command numbers.
    public let numbers: ClusterCommandNumbers
    /// Redis's `appendonly` and `appendfsync` settings at join (nil where `CONFIG GET` is
    /// refused): an ack is only as durable as they make it (CLUSTER.md §1.4).
    public let persistence: (appendonly: String, appendfsync: String)?
    /// What the log counts, for `/metrics`.
    public let metrics = ClusterMetrics()
    /// The files of the cluster's latest snapshots, by number, as read at join (empty when the
    /// cluster has none yet): a node restores them instead of its configured state.
    public let restored: [ClusterFileSnapshot]
    /// Every asset uploaded to the cluster, as read at join (`<prefix>:assets`).
    public let sharedAssets: [AssetReference]
    /// Whether the reader is fresh, and since when it is cut off (`RiveSyncClusterCore`'s
    /// `ReaderPosition`; the reader's own catch-up tells when it is fresh again).
    private let freshness = Mutex(ReaderPosition(after: .start))

    /// False while the stream cannot be read (from a failed read until the reader catches up
    /// again): the node's `/readyz` then answers 503.
    public var isReachable: Bool { freshness.withLock { $0.reachable } }

    /// The lease (`RiveSyncClusterCore`'s `ClusterLease`: token, generations, until when it
    /// is held, quarantine) and the appends sent under it.
    struct Fencing {
        var lease: ClusterLease
        /// Tickets whose append was sent, with the generation they were sent in.
        var sent: [UInt64: Int] = [:]
        /// When each ticket's append was sent (for the log lag).
        var sentAt: [UInt64: UInt64] = [:]
    }
    let fencing: Mutex<Fencing>

    let appendQueue = DispatchQueue(label: "rivesyncd.cluster.append")
    /// The append connection (touched on `appendQueue` only).
    var appender: RedisConnection?
    /// Appends sent on `appender` and not answered yet (touched on `appendQueue` only).
    var inFlight = RedisWindow<PendingAppend>(capacity: RedisChangeLog.appendWindow)
    /// Proposals waiting for room in `inFlight`, oldest first (touched on `appendQueue` only).
    var waitingToSend: [PendingAppend] = []
    /// True while a pass of `pumpAppends` is queued or running (touched on `appendQueue` only).
    var pumping = false
    /// Until when (monotonic nanoseconds) appends are refused without connecting, after a
    /// failed connect (touched on `appendQueue` only).
    var unreachableUntil: UInt64 = 0
    /// Set when the append connection broke with appends in flight: the next pass joins at
    /// once, so that the join's read-back answers them (touched on `appendQueue` only).
    var joinForUnknown = false
    private let leaseQueue = DispatchQueue(label: "rivesyncd.cluster.lease")
    /// The lease connection (touched on `leaseQueue` only).
    private var leaseConnection: RedisConnection?
    private var leaseTimer: DispatchSourceTimer?

    // The worker's side (its queue only).
    weak var sink: (any LogSink)?
    var deliver: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    private var onEvent: (@Sendable (Event) -> Void)?
    private var replicating = false
    var waiting: Set<UInt64> = []
    private var reader: RedisStreamReader?
    private var leaseReported = false
    private let caughtUp = DispatchSemaphore(value: 0)
    private var signalledCaughtUp = false
    /// Each restored file's snapshot position: its records up to it are in its snapshot.
    private var skipUpTo: [String: RedisStreamID] = [:]
    /// The entry being committed (a snapshot taken meanwhile includes it).
    private var committing: RedisStreamID?
    /// Record entries in the whole log up to the one committed last (a restored node starts at
    /// its snapshot's count): the same on every node at the same entry.
    private var recordCount: UInt64 = 0
    /// Snapshots taken at `committing`, written once its commit is over.
    private var pendingSnapshots: [(file: String, snapshot: JSONValue, header: JSONValue)] = []
    /// A file's number and header, for its snapshot (the daemon's directory).
    private var fileHeader: ((String) -> (number: UInt64, header: JournalHeader)?)?
    /// Applies a `file` entry (loads the file); true when it loaded.
    private var loadFile: ((String, JSONValue) -> Bool)?
    /// Applies an `asset` entry (the asset is known from then on).
    private var addAsset: ((AssetReference) -> Void)?
    /// This node's `file` and `asset` proposals waiting for their entry, by ticket.
    var waitingEntries: [UInt64: @Sendable (EntryOutcome) -> Void] = [:]
    private var lastEntryTicket: UInt64 = 0
    /// Set once the log was found lost: nothing more is committed.
    private var lost = false
    private let snapshotQueue = DispatchQueue(label: "rivesyncd.cluster.snapshot")
    /// The snapshot connection (touched on `snapshotQueue` only).
    private var snapshotConnection: RedisConnection?

    /// Joins the cluster: connects, reads (or sets) the epoch, takes a command-number slot and
    /// a lease. Throws when Redis cannot be reached (a node does not start cut off).
    /// `newEpoch` makes a fresh epoch (for a cluster that has none, or whose log went back).
    public init(_ settings: Settings, newEpoch: @escaping @Sendable () -> String) throws(RedisError) {
        self.settings = settings
        self.newEpoch = newEpoch
        let connection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
        try connection.command(["SET", RedisArgument(settings.keys.epoch), RedisArgument(newEpoch()), "NX"])
        guard let epoch = try connection.command(["GET", RedisArgument(settings.keys.epoch)]).string() else {
            throw .unexpectedReply("no epoch at \(settings.keys.epoch)")
        }
        self.epoch = epoch
        persistence = Self.persistence(connection)
        numbers = ClusterCommandNumbers(slot: UInt64(try connection.command(["INCR", RedisArgument(settings.keys.slots)]).integer()))
        let token = Self.newToken()
        let sentAt = Self.now()
        try connection.command([
            "SET", RedisArgument(settings.keys.lease(of: settings.node)), RedisArgument(token), "PX", Self.milliseconds(settings.lease),
        ])
        .expectStatus("OK")
        fencing = Mutex(Fencing(lease: ClusterLease(token: token, sentAt: ClusterInstant(nanoseconds: sentAt), duration: settings.lease)))
        // Pinned first: no trim cuts above where this node will read from until it caught up.
        try connection.command([
            "EVAL", RedisArgument(ClusterScripts.pin), 2, RedisArgument(settings.keys.snapshotIDs), RedisArgument(settings.keys.pins),
            RedisArgument(settings.node), RedisArgument(Self.pinMilliseconds),
        ])
        restored = try ClusterFileSnapshot.read(connection, keys: settings.keys)
        sharedAssets = try ClusterEntry.assets(try connection.command(["HGETALL", RedisArgument(settings.keys.assets)]))
        connection.close()
    }

    /// Records `fingerprint` (the configured files, instances and state machines) as the
    /// cluster's if it has none yet, and returns where this node's differs from the cluster's
    /// (nil: they agree).
    public func configurationDifference(_ fingerprint: JSONValue) throws(RedisError) -> String? {
        let connection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
        defer { connection.close() }
        let key = RedisArgument(settings.keys.configuration)
        try connection.command(["SET", key, RedisArgument(bytes: fingerprint.serialized()), "NX"])
        guard let recorded = try connection.command(["GET", key]).bytes() else { throw .unexpectedReply("no configuration at \(key)") }
        let cluster: JSONValue
        do { cluster = try JSONParser().parse(recorded) } catch { throw .unexpectedReply("the cluster's configuration: \(error)") }
        return ClusterConfigurationCheck.difference(fingerprint, cluster)
    }

    deinit { stop() }

    // MARK: ChangeLog

    public func append(_ record: JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
        guard replicating else {
            sink.committed(file: file, record: record, ticket: ticket)
            return
        }
        waiting.insert(ticket.rawValue)
        let entry = ClusterEntry(kind: .record(file: file, record), node: settings.node, token: "", ticket: ticket.rawValue)
        enqueueAppend(
            PendingAppend(entry: entry) { [self] failure in
                deliver? { [self] in
                    guard waiting.remove(ticket.rawValue) != nil else { return }
                    self.sink?.appendFailed(file: file, ticket: ticket, failure: failure)
                }
            })
    }

    /// A rejected record stays: every node rejects it alike.
    public func retract(file: String) {}

    /// Takes `file`'s snapshot at the entry being committed; it is written (with the other
    /// files', the core compacts every file at once) when that entry's commit is over, then
    /// the stream is trimmed (CLUSTER.md §2.7). A failed write only keeps the longer log.
    public func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) {
        guard committing != nil, let found = fileHeader?(file) else { return }
        let snapshot = JournalSnapshot(upTo: recordCount, state: state, targets: targets).json
        pendingSnapshots.append((file, snapshot, ClusterFileSnapshot.fileDocument(number: found.number, header: found.header)))
    }

    /// `snapshotEvery` at the entries every node compacts at (the log's record count a multiple
    /// of it), else 0.
    public func recordsSinceCompaction(of file: String) -> Int {
        recordCount > 0 && recordCount % UInt64(settings.snapshotEvery) == 0 ? settings.snapshotEvery : 0
    }

    /// One stream holds every file: a file never compacted would pin the trim.
    public var compactsEveryFile: Bool { true }

    /// Proposes loading a file on every node (a `file` entry, CLUSTER.md §2.3); `answer` is
    /// called once, on the worker's queue: after the entry applied, or when it surely did not
    /// get in. Call on the worker's queue, once replicating.
    public func proposeFile(name: String, header: JournalHeader, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        propose(.file(name: name, header: header.json), answer: answer)
    }

    /// Proposes an uploaded asset to every node (an `asset` entry), after recording it in
    /// `<prefix>:assets` for nodes that start later; `answer` as for `proposeFile`.
    public func proposeAsset(_ asset: AssetReference, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        propose(.asset(asset), answer: answer)
    }

    private func propose(_ kind: ClusterEntry.Kind, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        lastEntryTicket += 1
        let ticket = Self.entryTickets | lastEntryTicket
        waitingEntries[ticket] = answer
        let entry = ClusterEntry(kind: kind, node: settings.node, token: "", ticket: ticket)
        enqueueAppend(
            PendingAppend(entry: entry) { [self] failure in
                deliver? { [self] in waitingEntries.removeValue(forKey: ticket)?(.failed(failure)) }
            })
    }

    /// Tickets of `file` entries have the top bit set (the core's record tickets never do).
    private static let entryTickets: UInt64 = 1 << 63

    // MARK: Replicating

    /// Starts reading the stream from its first entry and committing it to `sink` on `queue`
    /// (the worker's), and renewing the lease. Call once, with the worker idle.
    /// `fileHeader` gives a file's number and header for its snapshots; `loadFile` applies a
    /// `file` entry (both on `queue`). The reader starts after the lowest id of the restored
    /// snapshots, and skips each restored file's records up to its own.
    public func startReplicating(
        sink: any LogSink, queue: DispatchQueue, fileHeader: @escaping (String) -> (number: UInt64, header: JournalHeader)?,
        loadFile: @escaping (String, JSONValue) -> Bool, addAsset: @escaping (AssetReference) -> Void,
        onEvent: @escaping @Sendable (Event) -> Void
    ) throws(RedisError) {
        let first = restored.min { $0.upTo < $1.upTo }
        let start = first?.upTo ?? .start
        queue.sync {
            self.sink = sink
            self.deliver = { queue.async(execute: $0) }
            self.onEvent = onEvent
            self.fileHeader = fileHeader
            self.loadFile = loadFile
            self.addAsset = addAsset
            self.skipUpTo = Dictionary(restored.map { ($0.header.name, $0.upTo) }, uniquingKeysWith: max)
            self.recordCount = first?.snapshot.upTo ?? 0
            self.replicating = true
        }
        var readerSettings = RedisStreamReader.Settings()
        readerSettings.timeout = settings.timeout
        readerSettings.block = .milliseconds(500)
        readerSettings.name = Self.readerName(settings.node)
        readerSettings.replication = replication()
        let deliver = self.deliver!
        readerSettings.check = { [keys = settings.keys, epoch, metrics, newEpoch] connection, after, read throws(RedisError) in
            let verdict = try connection.command([
                "EVAL", RedisArgument(ClusterScripts.check), 3, RedisArgument(keys.epoch), RedisArgument(keys.log),
                RedisArgument(keys.trims),
                RedisArgument(epoch), after.argument, RedisArgument(read.first.map(\.id.description) ?? ""),
            ]).string()
            let loss: LogLoss
            switch verdict {
            case "ok": return true
            case "trimmed": loss = .behindTrim
            default:
                loss = .wentBack
                // The first node to see it renews the epoch, so old cursors get snapshots.
                _ = try? connection.command([
                    "EVAL", RedisArgument(ClusterScripts.renewEpoch), 1, RedisArgument(keys.epoch), RedisArgument(epoch),
                    RedisArgument(newEpoch()),
                ])  // a failure leaves the epoch to the restarted nodes' SET NX (the key is gone) or to another node
            }
            metrics.redisErrors.add(1, ordering: .relaxed)
            deliver { [self] in logLost(loss) }
            return false
        }
        reader = try RedisStreamReader(settings.endpoint, key: settings.keys.log, after: start, settings: readerSettings) { [self] event in
            deliver { [self] in handle(event) }
        }
        startLeaseRenewal()
    }

    /// Waits until the reader has read the whole log once (a node serves only then).
    public func waitUntilCaughtUp(timeout: Duration) -> Bool {
        caughtUp.wait(timeout: .now() + .nanoseconds(Int(Self.nanoseconds(timeout)))) == .success
    }

    /// Stops reading and renewing (the lease then runs out by itself).
    public func stop() {
        reader?.stop()
        leaseTimer?.cancel()
    }

    // MARK: The worker's side

    private func handle(_ event: RedisStreamReader.Event) {
        switch event {
        case .entries(let entries):
            for entry in entries {
                guard !lost else { return }
                commit(entry)
            }
        case .caughtUp:
            signalCaughtUp()
            metrics.reachable.store(1, ordering: .relaxed)
            let wasCutOff = freshness.withLock { freshness in
                defer { _ = freshness.caughtUp() }
                return freshness.cutOffSince != nil
            }
            if wasCutOff {
                logReachable()
                onEvent?(.caughtUp)
            }
        case .failed(let error):
            metrics.reachable.store(0, ordering: .relaxed)
            metrics.redisErrors.add(1, ordering: .relaxed)
            if freshness.withLock({ $0.failed(at: Self.clock()) }) { onEvent?(.cutOff(error)) }
        }
    }

    private func signalCaughtUp() {
        guard !signalledCaughtUp else { return }
        signalledCaughtUp = true
        caughtUp.signal()
        // Read past the snapshots: trims may cut where this node started (a failure leaves the
        // pin to expire).
        snapshotQueue.async { [self] in
            do throws(RedisError) {
                if snapshotConnection?.isBroken ?? true {
                    snapshotConnection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
                }
                try snapshotConnection!.command(["HDEL", RedisArgument(settings.keys.pins), RedisArgument(settings.node)])
            } catch {
                metrics.redisErrors.add(1, ordering: .relaxed)
                if error.closesConnection { snapshotConnection = nil }
            }
        }
    }

    /// How long a starting node's pin holds at most (it is removed once the node caught up).
    static let pinMilliseconds = 120_000

    private func commit(_ raw: RedisStreamEntry) {
        let entry: ClusterEntry
        do { entry = try ClusterEntry(raw) } catch {
            onEvent?(.invalidEntry(error.description))
            return
        }
        let own = entry.node == settings.node
        metrics.applied.add(1, ordering: .relaxed)
        switch entry.kind {
        case .record(let file, let record):
            if case .advance(_, let commands, _) = record, let highest = commands.map(\.id).max() { numbers.ensure(above: highest) }
            recordCount += 1
            // In the file's restored snapshot already.
            if let upTo = skipUpTo[file], raw.id <= upTo { return }
            var ticket: LogTicket?
            if own, waiting.contains(entry.ticket), fencing.withLock({ $0.lease.generations[entry.token] != nil }) {
                waiting.remove(entry.ticket)
                let sentAt = fencing.withLock { fencing in
                    fencing.sent[entry.ticket] = nil
                    return fencing.sentAt.removeValue(forKey: entry.ticket)
                }
                if let sentAt {
                    metrics.lagNanoseconds.add(Self.now() &- sentAt, ordering: .relaxed)
                    metrics.lagCount.add(1, ordering: .relaxed)
                }
                if leaseHeld() { ticket = LogTicket(entry.ticket) }
            }
            committing = raw.id
            sink?.committed(file: file, record: record, ticket: ticket)
            committing = nil
            if !pendingSnapshots.isEmpty { storeSnapshots(upTo: raw.id) }
        case .file(let name, let header):
            if let upTo = skipUpTo[name], raw.id <= upTo { return }
            let loaded = loadFile?(name, header) ?? false
            if own, fencing.withLock({ $0.lease.generations[entry.token] != nil }),
                let answer = waitingEntries.removeValue(forKey: entry.ticket)
            {
                fencing.withLock { fencing in
                    fencing.sent[entry.ticket] = nil
                    fencing.sentAt[entry.ticket] = nil
                }
                answer(.committed(applied: loaded))
            }
        case .asset(let asset):
            addAsset?(asset)
            if own, fencing.withLock({ $0.lease.generations[entry.token] != nil }),
                let answer = waitingEntries.removeValue(forKey: entry.ticket)
            {
                fencing.withLock { fencing in
                    fencing.sent[entry.ticket] = nil
                    fencing.sentAt[entry.ticket] = nil
                }
                answer(.committed(applied: true))
            }
        case .join:
            guard own, let generation = fencing.withLock({ $0.lease.generations[entry.token] }) else { return }
            leaseReported = false
            // Proposals sent with an earlier token that did not come before this join never will.
            let lost = fencing.withLock { fencing in
                let lost = fencing.sent.filter { $0.value < generation }.map(\.key)
                for ticket in lost { fencing.sent[ticket] = nil }
                return lost
            }
            let failure = LogFailure("the connection to Redis broke before the change was appended")
            for ticket in lost {
                if waiting.remove(ticket) != nil { sink?.appendFailed(file: "", ticket: LogTicket(ticket), failure: failure) }
                waitingEntries.removeValue(forKey: ticket)?(.failed(failure))
            }
        }
    }

    /// True while the lease is surely held. When it is not, the loss is handled as when the
    /// renewal timer finds it (quarantine first, so no later proposal goes out with the old
    /// token and none is left unanswered), once per generation.
    private func leaseHeld() -> Bool {
        let (state, generation) = fencing.withLock { ($0.lease.state(at: Self.clock()), $0.lease.generation) }
        let held = state != .lost
        if !held { lost(generation) }
        return held
    }

    /// The lease ended (by the clock, or Redis no longer holds it): no proposal made before
    /// is ever answered, and the daemon is told (it closes every connection). Once per loss.
    private func leaseEnded() {
        guard !leaseReported else { return }
        leaseReported = true
        waiting.removeAll()
        let files = waitingEntries
        waitingEntries.removeAll()
        for answer in files.values { answer(.failed(LogFailure("this node's cluster lease ended"))) }
        fencing.withLock { fencing in
            fencing.sent.removeAll()
            fencing.sentAt.removeAll()
        }
        metrics.leaseLosses.add(1, ordering: .relaxed)
        onEvent?(.leaseLost)
    }

    /// The log is not the one this node applied: stop everything and tell the daemon.
    private func logLost(_ loss: LogLoss) {
        guard !lost else { return }
        lost = true
        leaseTimer?.cancel()
        onEvent?(.logLost(loss))
    }

    /// Writes the snapshots taken at `upTo` and trims the stream (on `snapshotQueue`; a
    /// failure keeps the longer log and is counted).
    private func storeSnapshots(upTo: RedisStreamID) {
        var arguments: [RedisArgument] = [
            "EVAL", RedisArgument(ClusterScripts.storeSnapshots), 8, RedisArgument(settings.keys.snapshots),
            RedisArgument(settings.keys.snapshotIDs), RedisArgument(settings.keys.files), RedisArgument(settings.keys.log),
            RedisArgument(settings.keys.trims), RedisArgument(settings.keys.trimPoint), RedisArgument(settings.keys.pins),
            RedisArgument(settings.keys.voided), upTo.argument,
        ]
        for pending in pendingSnapshots {
            arguments += [
                RedisArgument(pending.file), RedisArgument(bytes: pending.snapshot.serialized()),
                RedisArgument(bytes: pending.header.serialized()),
            ]
        }
        pendingSnapshots = []
        snapshotQueue.async { [self, arguments] in
            do throws(RedisError) {
                if snapshotConnection?.isBroken ?? true {
                    snapshotConnection = try RedisConnection(settings.endpoint, timeout: settings.timeout)
                }
                _ = try snapshotConnection!.command(arguments)
            } catch {
                metrics.redisErrors.add(1, ordering: .relaxed)
                if error.closesConnection { snapshotConnection = nil }
                deliver? { [self] in onEvent?(.snapshotFailed(error)) }
            }
        }
    }

    // MARK: The lease (leaseQueue)

    private func startLeaseRenewal() {
        let timer = DispatchSource.makeTimerSource(queue: leaseQueue)
        let interval = Self.nanoseconds(settings.lease) / 3
        timer.schedule(deadline: .now() + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)))
        timer.setEventHandler { [self] in renewLease() }
        leaseTimer = timer
        timer.resume()
    }

    private func renewLease() {
        let sentAt = Self.now()
        let (token, generation, validUntil) = fencing.withLock { fencing in
            fencing.lease.renewing(at: ClusterInstant(nanoseconds: sentAt))
            return (fencing.lease.token, fencing.lease.generation, fencing.lease.validUntil.nanoseconds)
        }
        // Woken after the lease ran out (the process was stopped, or Redis did not answer).
        if sentAt >= validUntil { lost(generation) }
        // Cut off from the log for a whole lease while Redis still renews it (replicas missing
        // under `waitForReplicas`): ended as if it had run out, so no write waits without bound
        // (CLUSTER.md §3.6).
        if let since = freshness.withLock({ $0.cutOffSince }), ClusterInstant(nanoseconds: sentAt).since(since) >= settings.lease {
            lost(generation)
        }
        do {
            if leaseConnection?.isBroken ?? true { leaseConnection = try RedisConnection(settings.endpoint, timeout: settings.timeout) }
            let renewed = try leaseConnection!.command([
                "EVAL", RedisArgument(ClusterScripts.renew), 1, RedisArgument(settings.keys.lease(of: settings.node)), RedisArgument(token),
                Self.milliseconds(settings.lease),
            ]).integer()
            let held = fencing.withLock { fencing in
                fencing.lease.renewed(generation: generation, sentAt: ClusterInstant(nanoseconds: sentAt), held: renewed == 1)
            }
            if !held { lost(generation) }
            let length = try leaseConnection!.command(["XLEN", RedisArgument(settings.keys.log)]).integer()
            metrics.streamEntries.store(Int(length), ordering: .relaxed)
        } catch {
            fencing.withLock { $0.lease.renewalFailed() }
            metrics.redisErrors.add(1, ordering: .relaxed)
            if error.closesConnection { leaseConnection = nil }
        }
    }

    /// The lease of `generation` is over: quarantine, a new token before the next append, and
    /// the worker told.
    private func lost(_ generation: Int) {
        let first = fencing.withLock { fencing in
            fencing.lease.generation == generation && fencing.lease.end(at: Self.clock(), quarantine: Self.quarantine)
        }
        if first { deliver? { [self] in leaseEnded() } }
    }

    // MARK: Helpers

    /// `CONFIG GET appendonly` and `appendfsync`; nil when Redis refuses them.
    private static func persistence(_ connection: RedisConnection) -> (appendonly: String, appendfsync: String)? {
        func setting(_ name: String) -> String? {
            guard let reply = try? connection.command(["CONFIG", "GET", RedisArgument(name)]).array(), reply.count == 2 else { return nil }
            return try? reply[1].string()
        }
        guard let appendonly = setting("appendonly"), let appendfsync = setting("appendfsync") else { return nil }
        return (appendonly, appendfsync)
    }

    /// How long a node whose lease ended appends nothing (its connections close meanwhile).
    static let quarantine = Duration.seconds(1)

    static func newToken() -> String { String(UInt64.random(in: 1...UInt64.max), radix: 16) }
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// The monotonic clock's reading, as the cluster core takes it.
    static func clock() -> ClusterInstant { ClusterInstant(nanoseconds: now()) }
    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1_000_000_000 + UInt64(duration.components.attoseconds / 1_000_000_000)
    }
    static func milliseconds(_ duration: Duration) -> RedisArgument { RedisArgument(nanoseconds(duration) / 1_000_000) }
}
