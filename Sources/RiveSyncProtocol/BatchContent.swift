import RiveSyncModel

/// What a `batch` message is written from: a `ServerMessage.Batch`, or an advance's
/// `ChangeBatch` as its subscribers receive it (`ServerMessage.batchBytes`, which makes no
/// `Batch` on the way: ~1,700 instructions and ~11 references retained and released a batch).
protocol BatchContent: ~Copyable {
    var target: String { get }
    var seq: UInt64 { get }
    /// The commands the batch applied, in order.
    var commands: [UInt64] { get }
    /// How many authors the batch lists (a `Batch` lists its own; a change batch one per
    /// command).
    var authorCount: Int { get }
    /// The author listed at `index` (of `commands[index]`), if recorded.
    func author(ofCommandAt index: Int) -> Author?
    var elapsed: Double { get }
    var events: [ReportedEvent] { get }
    var layers: [LayerState] { get }
    var settled: Bool { get }
}

extension ServerMessage.Batch: BatchContent {
    var authorCount: Int { authors?.count ?? 0 }

    func author(ofCommandAt index: Int) -> Author? { authors?[index] ?? nil }
}

extension ChangeBatch: BatchContent {
    var commands: [UInt64] { applied }

    var authorCount: Int { applied.count }

    func author(ofCommandAt index: Int) -> Author? { authors[applied[index]] }
}
