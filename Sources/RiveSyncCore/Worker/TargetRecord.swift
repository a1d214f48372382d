import RiveSyncModel
import RiveSyncProtocol

extension WorkerCore {
    /// A target's state in the worker.
    ///
    /// A value, held as one reference to its fields (copied on write): the worker keeps its
    /// records in a dictionary and changes them in place (`targets[name]!.queued.append`),
    /// and a dictionary's in-place access to a value larger than a few words allocates a
    /// heap frame each time (several per set at 100 rooms, `bench/README.md`).
    public struct TargetRecord: Sendable {
        private var fields: Fields

        /// `settled`: the model's `isSettled` of the new target; `runtime`: its file's handle
        /// in the worker's `files`.
        init(file: String, runtime: FileHandle, manual: Bool, rate: Double, settled: Bool) {
            fields = Fields(file: file, runtime: runtime, manual: manual, rate: rate)
            fields.settled = settled
        }

        /// The fields, unshared first: a copy of the record keeps the fields it had.
        private var unique: Fields {
            mutating get {
                if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
                return fields
            }
        }

        public var file: String { fields.file }
        /// Where the target's file is in the worker's `files` (a target lives as long as its
        /// file, so this holds while the record does).
        var runtime: FileHandle { fields.runtime }
        public var manual: Bool {
            get { fields.manual }
            set { unique.manual = newValue }
        }
        public var rate: Double {
            get { fields.rate }
            set { unique.rate = newValue }
        }
        var lastAdvance: UInt64 {
            get { fields.lastAdvance }
            set { unique.lastAdvance = newValue }
        }
        var scheduled: Bool {
            get { fields.scheduled }
            set { unique.scheduled = newValue }
        }
        /// When this worker last accounted the state machine's time (an advance it proposed,
        /// or another node's it applied): an auto advance runs the time since.
        var lastStep: UInt64? {
            get { fields.lastStep }
            set { unique.lastStep = newValue }
        }
        /// Whether the target's state machine needs no further advance, as the model said when
        /// the record was made and after each advance applied since (`advanceApplied`): only
        /// an advance changes it. Kept here so that proposing an advance (`autoElapsed`) does
        /// not look the target's file and the model's target up by name.
        var settled: Bool {
            get { fields.settled }
            set { unique.settled = newValue }
        }
        /// Whether this worker ticks the target while its state machine runs (see
        /// `advanceApplied`).
        var drivesTime: Bool {
            get { fields.drivesTime }
            set { unique.drivesTime = newValue }
        }
        var subscribers: [ConnectionID: Subscription] {
            get { fields.subscribers }
            _modify {
                // Any change of a subscription changes who gets the batches.
                defer { fields.audience = nil }
                yield &unique.subscribers
            }
        }
        /// The subscribers as a batch reaches them while none lags (all of them but those
        /// lagging already): made on the first batch and kept until `subscribers` change.
        var audience: Fanout.Audience {
            mutating get {
                if let audience = fields.audience { return audience }
                let audience = freshAudience { _ in false }
                unique.audience = audience
                return audience
            }
        }
        /// The subscribers not lagging already as a batch reaches them, those `lags` says lag
        /// set apart (asked of each in turn).
        func freshAudience(lags: (ConnectionID) -> Bool) -> Fanout.Audience {
            Fanout.Audience(
                fields.subscribers.lazy.filter { !$0.value.lagging }.map { Fanout.Subscriber(connection: $0.key, paths: $0.value.paths) },
                lags: lags)
        }
        /// The bytes the target's latest batch and acks opened with (its name and epoch), for the
        /// next.
        var openings: ServerMessage.TargetOpenings? {
            get { fields.openings }
            set { unique.openings = newValue }
        }
        /// The latest batches, oldest first, at most `historyBatches`.
        var history: BatchHistory {
            get { fields.history }
            _modify { yield &unique.history }
        }
        /// Commands waiting for this target's next advance, in arrival order: proposed with
        /// it, and applied only once the log commits it.
        public internal(set) var queued: QueuedCommands {
            get { fields.queued }
            _modify { yield &unique.queued }
        }
        /// The batches kept for resuming subscribers, oldest first, read back from their frames
        /// (`name`: this record's target; `runtime`: its file's).
        public func batchHistory(of name: String, in runtime: FileRuntime) throws -> [ChangeBatch] {
            try fields.history.ordered.map { try $0.batch(of: name, in: runtime) }
        }
        /// Advances proposed and not yet answered by the log.
        var advancesInFlight: Int {
            get { fields.advancesInFlight }
            set { unique.advancesInFlight = newValue }
        }
        /// Commands queued on this target that wait for their advance, by command number.
        var pending: PendingAcks {
            get { fields.pending }
            _modify { yield &unique.pending }
        }
        /// Who is there (PROTOCOL.md §15): never journaled, gone with the record.
        var presence: PresenceRecord {
            get { fields.presence }
            _modify { yield &unique.presence }
        }
    }
}

extension WorkerCore.TargetRecord {
    /// The record's fields, shared by copies of the record until one of them changes.
    /// Unchecked: only ever changed through `unique`, so never while another record holds it;
    /// for the same reason its fields need no run-time exclusivity check (the record's own
    /// access, checked statically, covers them).
    fileprivate final class Fields: @unchecked Sendable {
        let file: String
        let runtime: WorkerCore.FileHandle
        @exclusivity(unchecked) var manual: Bool
        @exclusivity(unchecked) var rate: Double
        @exclusivity(unchecked) var lastAdvance: UInt64 = 0
        @exclusivity(unchecked) var scheduled = false
        @exclusivity(unchecked) var lastStep: UInt64?
        @exclusivity(unchecked) var settled = true
        @exclusivity(unchecked) var drivesTime = true
        @exclusivity(unchecked) var subscribers: [ConnectionID: WorkerCore.Subscription] = [:]
        @exclusivity(unchecked) var audience: Fanout.Audience?
        @exclusivity(unchecked) var openings: ServerMessage.TargetOpenings?
        @exclusivity(unchecked) var history = WorkerCore.BatchHistory()
        @exclusivity(unchecked) var queued = QueuedCommands()
        @exclusivity(unchecked) var advancesInFlight = 0
        @exclusivity(unchecked) var pending = WorkerCore.PendingAcks()
        @exclusivity(unchecked) var presence = PresenceRecord()

        init(file: String, runtime: WorkerCore.FileHandle, manual: Bool, rate: Double) {
            self.file = file
            self.runtime = runtime
            self.manual = manual
            self.rate = rate
        }

        func copy() -> Fields {
            let copy = Fields(file: file, runtime: runtime, manual: manual, rate: rate)
            copy.lastAdvance = lastAdvance
            copy.scheduled = scheduled
            copy.lastStep = lastStep
            copy.settled = settled
            copy.drivesTime = drivesTime
            copy.subscribers = subscribers
            copy.audience = audience
            copy.openings = openings
            copy.history = history
            copy.queued = queued
            copy.advancesInFlight = advancesInFlight
            copy.pending = pending
            copy.presence = presence
            return copy
        }
    }
}
