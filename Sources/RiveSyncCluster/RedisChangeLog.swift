import Dispatch
import RiveSyncClusterCore
import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncRedis

/// The change log of a cluster node (protocol/CLUSTER.md §2): every node's records go into one
/// Redis stream through the fencing append script, and every node commits what it reads back
/// from the stream, in stream order, on its worker's queue. It is the shell of
/// `RiveSyncClusterCore`'s `ClusterCore`, which decides everything — the lease and its tokens,
/// the append window, joins, which entry answers which proposal, compactions, freshness — from
/// the events this shell hands it (Redis's answers, the reader's reads, the clock's readings);
/// the shell performs the actions it returns and decides nothing itself.
///
/// Before `startReplicating` the log commits each proposal at once, in the same step, without
/// Redis: that is how every node applies its configured files and state identically before the
/// stream (the configuration's changes need an answer in the same step).
///
/// Execution contexts (four): the worker's queue holds the core and everything it decides on
/// (every event is carried there); the append connection blocks for its replies on
/// `appendQueue`, the stream reader blocks in `XREAD` and `WAIT` on its own thread, and the lease
/// renewals, snapshots, pins and voids — single commands — share `sideQueue` and its connection.
/// Only the worker's queue never waits for Redis. Debug builds check each confinement
/// (`dispatchPrecondition`). That confinement of each stored `var` to its context is what
/// makes `@unchecked Sendable` sound.
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
    let newEpoch: @Sendable () -> String
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
    /// The token taken at join, and when its `SET` was sent: the core starts with it.
    private let joinedWith: (token: String, sentAt: ClusterInstant)

    /// False while the stream cannot be read (from a failed read until the reader catches up
    /// again, as the core reports it): the node's `/readyz` then answers 503.
    public var isReachable: Bool { metrics.reachable.load(ordering: .relaxed) == 1 }

    // The worker's side (its queue only).
    /// The decisions; nil until `startReplicating`.
    var core: ClusterCore?
    weak var sink: (any LogSink)?
    /// The worker's queue, where the core lives (set once, before anything is delivered).
    var workerQueue: DispatchQueue?
    var onEvent: (@Sendable (Event) -> Void)?
    /// Events that came while the core's actions were performed, and their causes.
    var waitingEvents: [(ClusterEvent, RedisError?)] = []
    /// True while `handle` performs the core's actions.
    var handling = false
    /// This node's proposals not answered yet, by ticket.
    var proposals: [UInt64: Proposal] = [:]
    /// The entries of the read being handed to the core, by position.
    var reading: [LogPosition: (id: RedisStreamID, entry: ClusterEntry)] = [:]
    /// Each restored file's snapshot position: its records up to it are in its snapshot.
    var skipUpTo: [String: RedisStreamID] = [:]
    /// The entry being committed when every file is due for compaction at it.
    var compactingAt: RedisStreamID?
    /// Snapshots taken at `compactingAt`, written once its commit is over.
    var pendingSnapshots: [(file: String, snapshot: JSONValue, header: JSONValue)] = []
    /// A file's number and header, for its snapshot (the daemon's directory).
    var fileHeader: ((String) -> (number: UInt64, header: JournalHeader)?)?
    /// Applies a `file` entry (loads the file); true when it loaded.
    var loadFile: ((String, JSONValue) -> Bool)?
    /// Applies an `asset` entry (the asset is known from then on).
    var addAsset: ((AssetReference) -> Void)?
    private var lastEntryTicket: UInt64 = 0
    private var reader: RedisStreamReader?
    /// Carries the clock into the core as `tick`s (on the worker's queue).
    var ticker: DispatchSourceTimer?
    private let caughtUp = DispatchSemaphore(value: 0)

    let appendQueue = DispatchQueue(label: "rivesyncd.cluster.append")
    /// The append connection (touched on `appendQueue` only).
    var appender: RedisConnection?
    /// Appends sent on `appender` and not answered yet, by ticket (touched on `appendQueue` only).
    var inFlight = RedisWindow<UInt64>(capacity: RedisChangeLog.appendWindow)
    /// True while a pass taking replies is queued (touched on `appendQueue` only).
    var receiving = false
    /// Steps waiting for the next pass that performs them, and whether one is queued
    /// (touched on `appendQueue` only).
    var stepsWaiting: [AppendStep] = []
    var performing = false
    let sideQueue = DispatchQueue(label: "rivesyncd.cluster.side")
    /// The connection of the lease renewals, snapshots, pins and voids (touched on `sideQueue` only).
    var sideConnection: RedisConnection?

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
        let sentAt = Self.clock()
        try connection.command([
            "SET", RedisArgument(settings.keys.lease(of: settings.node)), RedisArgument(token), "PX", Self.milliseconds(settings.lease),
        ])
        .expectStatus("OK")
        joinedWith = (token, sentAt)
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

    public func append(_ record: consuming JournalRecord, file: String, ticket: LogTicket, sink: any LogSink) {
        guard core != nil else {
            sink.committed(file: file, record: record, ticket: ticket)
            return
        }
        propose(ClusterEntry(kind: .record(file: file, record), node: settings.node, token: "", ticket: ticket.rawValue), answer: nil)
    }

    /// A rejected record stays: every node rejects it alike.
    public func retract(file: String) {}

    /// Takes `file`'s snapshot at the entry being committed, when the core found every file
    /// due there; it is written (with the other files') when that entry's commit is over, then
    /// the stream is trimmed (CLUSTER.md §2.7). A failed write only keeps the longer log.
    public func compact(file: String, state: JSONValue, targets: [JournalSnapshot.Target]) throws(LogFailure) {
        guard compactingAt != nil, let recordCount = core?.recordCount, let found = fileHeader?(file) else { return }
        let snapshot = JournalSnapshot(upTo: recordCount, state: state, targets: targets).json
        pendingSnapshots.append((file, snapshot, ClusterFileSnapshot.fileDocument(number: found.number, header: found.header)))
    }

    /// `snapshotEvery` while committing an entry the core compacts at (the same entries on
    /// every node), else 0.
    public func recordsSinceCompaction(of file: String) -> Int {
        compactingAt == nil ? 0 : settings.snapshotEvery
    }

    /// One stream holds every file: a file never compacted would pin the trim.
    public var compactsEveryFile: Bool { true }

    /// Proposes loading a file on every node (a `file` entry, CLUSTER.md §2.3); `answer` is
    /// called once, on the worker's queue: after the entry applied, or when it surely did not
    /// get in. Call on the worker's queue, once replicating.
    public func proposeFile(name: String, header: JournalHeader, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        proposeEntry(.file(name: name, header: header.json), answer: answer)
    }

    /// Proposes an uploaded asset to every node (an `asset` entry), after recording it in
    /// `<prefix>:assets` for nodes that start later; `answer` as for `proposeFile`.
    public func proposeAsset(_ asset: AssetReference, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        proposeEntry(.asset(asset), answer: answer)
    }

    private func proposeEntry(_ kind: ClusterEntry.Kind, answer: @escaping @Sendable (EntryOutcome) -> Void) {
        lastEntryTicket += 1
        propose(ClusterEntry(kind: kind, node: settings.node, token: "", ticket: Self.entryTickets | lastEntryTicket), answer: answer)
    }

    /// Tickets of `file` and `asset` entries have the top bit set (the core's record tickets
    /// never do).
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
        workerQueue = queue
        queue.sync {
            self.sink = sink
            self.onEvent = onEvent
            self.fileHeader = fileHeader
            self.loadFile = loadFile
            self.addAsset = addAsset
            self.skipUpTo = Dictionary(restored.map { ($0.header.name, $0.upTo) }, uniquingKeysWith: max)
            core = ClusterCore(
                ClusterCore.Settings(
                    node: settings.node, lease: settings.lease, snapshotEvery: settings.snapshotEvery, window: Self.appendWindow,
                    quarantine: Self.quarantine),
                token: joinedWith.token, sentAt: joinedWith.sentAt, after: LogPosition(start),
                recordCount: first?.snapshot.upTo ?? 0)
            startTicking(on: queue)
        }
        reader = try RedisStreamReader(settings.endpoint, key: settings.keys.log, after: start, settings: readerSettings()) {
            [self] event in
            queue.async { [self] in read(event) }
        }
    }

    /// Waits until the reader has read the whole log once (a node serves only then).
    public func waitUntilCaughtUp(timeout: Duration) -> Bool {
        caughtUp.wait(timeout: .now() + .nanoseconds(Int(ClusterInstant.nanoseconds(timeout)))) == .success
    }

    /// The reader caught up the first time: the daemon's start goes on.
    func signalCaughtUp() { caughtUp.signal() }

    /// Stops reading and renewing (the lease then runs out by itself).
    public func stop() {
        reader?.stop()
        ticker?.cancel()
    }

    /// The core's clock: a `tick` every sixth of the lease (renewals are due every third).
    private func startTicking(on queue: DispatchQueue) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.nanoseconds(Int(ClusterInstant.nanoseconds(settings.lease / 6)))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [self] in handle(.tick(now: Self.clock())) }
        ticker = timer
        timer.resume()
    }

    // MARK: Helpers

    /// `CONFIG GET appendonly` and `appendfsync`; nil when Redis refuses them (a managed Redis
    /// may rename or forbid `CONFIG`): the persistence warning is then left out, nothing else
    /// depends on it, so the errors are ignored.
    private static func persistence(_ connection: RedisConnection) -> (appendonly: String, appendfsync: String)? {
        func setting(_ name: String) -> String? {
            guard let reply = try? connection.command(["CONFIG", "GET", RedisArgument(name)]).array(), reply.count == 2 else { return nil }
            return try? reply[1].string()
        }
        guard let appendonly = setting("appendonly"), let appendfsync = setting("appendfsync") else { return nil }
        return (appendonly, appendfsync)
    }

    /// How long a starting node's pin holds at most (it is removed once the node caught up).
    static let pinMilliseconds = 120_000

    /// How long a node whose lease ended appends nothing (its connections close meanwhile).
    static let quarantine = Duration.seconds(1)

    /// Appends in flight on the append connection at most.
    static let appendWindow = 64

    /// Checks, in debug builds, that the caller runs on `queue` (nil: not started yet).
    static func confined(to queue: DispatchQueue?) {
        #if DEBUG
            if let queue { dispatchPrecondition(condition: .onQueue(queue)) }
        #endif
    }

    static func newToken() -> String { String(UInt64.random(in: 1...UInt64.max), radix: 16) }
    /// The monotonic clock's reading, as the cluster core takes it (the only clock the log reads).
    static func clock() -> ClusterInstant { ClusterInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds) }
    static func milliseconds(_ duration: Duration) -> RedisArgument { RedisArgument(ClusterInstant.nanoseconds(duration) / 1_000_000) }
}

extension LogPosition {
    /// The position of a stream id.
    init(_ id: RedisStreamID) { self.init(id.milliseconds, id.sequence) }
}
