import BenchLoadKit
import Synchronization

/// Per-connection receive state and process-wide tallies. Events arrive on the lws service
/// thread (writers, and subscribers with `--engine lws`) and on the raw engine's epoll thread
/// (subscribers with `--engine raw`); a subscriber process uses one of them, so the lock is
/// uncontended there. The main thread takes it to read readiness and the final figures.
final class Collector: Sendable {
    /// One connection's state, reached only through the lock. A value in the locked state's
    /// array, so the receive path changes it in place with no retain or dynamic exclusivity
    /// check (a class's stored properties need one per access).
    struct Connection {
        var decoder: ReceiveDecoder
        var scanner = RecordScanner()
        /// Next expected seq per writer index.
        var expected: [Int] = []
        var closed = false
    }

    /// Counters over all subscriber connections.
    struct Tally: Sendable {
        var received = 0
        /// Records received before the end of the send window (for the delivered rate).
        var receivedInWindow = 0
        /// Seqs skipped (a later seq arrived first); in rivesync's latest-state mode these
        /// are coalesced updates, not losses.
        var gaps = 0
        /// Records at or below a seq already seen (reordered or duplicated).
        var orderViolations = 0
        var messages = 0
        var bytes = 0
        var latency = LatencyHistogram()
        var errors: [String] = []
    }

    private struct State {
        var connections: [Connection] = []
        var tally = Tally()
        var windowEnd = UInt64.max
    }

    private let state = Mutex(State())

    /// Registers a connection; returns its index.
    func add(_ decoder: ReceiveDecoder) -> Int {
        state.withLock { state in
            state.connections.append(Connection(decoder: decoder))
            return state.connections.count - 1
        }
    }

    /// Sets the time after which received records no longer count as in the window.
    func setWindowEnd(_ nanoseconds: UInt64) {
        state.withLock { $0.windowEnd = nanoseconds }
    }

    /// How many connections are ready, and how many have closed or failed.
    func readiness() -> (ready: Int, closed: Int) {
        state.withLock { state in
            (state.connections.count { $0.decoder.ready && !$0.closed }, state.connections.count { $0.closed })
        }
    }

    /// A copy of the tallies (plus connection errors seen so far).
    func snapshot() -> Tally {
        state.withLock { state in
            var tally = state.tally
            tally.errors += state.connections.compactMap(\.decoder.firstError).prefix(3)
            return tally
        }
    }

    /// Handles one event of connection `index`.
    func handle(_ event: ClientEventView, index: Int) {
        state.withLock { state in
            switch event {
            case .opened:
                state.connections[index].decoder.opened()
            case .closed(let why):
                if !state.connections[index].closed, state.tally.errors.count < 5 { state.tally.errors.append(why) }
                state.connections[index].closed = true
            case .message(let bytes, let now):
                bytes.withUnsafeBytes { Self.receive($0, now: now, into: &state, index: index) }
            }
        }
    }

    /// Handles one message of connection `index` received at `now` (the raw engine's entry:
    /// `bytes` may point into its receive buffer, no copy is made).
    func receive(_ bytes: UnsafeRawBufferPointer, receivedAt now: UInt64, index: Int) {
        let borrowed = BorrowedBytes(buffer: bytes)
        state.withLock { Self.receive(borrowed.buffer, now: now, into: &$0, index: index) }
    }

    private static func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64, into state: inout State, index: Int) {
        guard state.connections[index].decoder.subscriber else {
            state.connections[index].decoder.receive(bytes) { _ in }
            return
        }
        state.tally.messages += 1
        state.tally.bytes += bytes.count
        let windowEnd = state.windowEnd
        deliver(bytes, now: now, windowEnd: windowEnd, to: &state.connections[index], tally: &state.tally)
    }

    /// Counts the records of one subscriber's message.
    private static func deliver(
        _ bytes: UnsafeRawBufferPointer, now: UInt64, windowEnd: UInt64, to connection: inout Connection, tally: inout Tally
    ) {
        connection.decoder.receive(bytes) { recordBytes in
            connection.scanner.scan(recordBytes) { record in
                count(record, now: now, windowEnd: windowEnd, expected: &connection.expected, tally: &tally)
            }
        }
    }

    private static func count(_ record: Record, now: UInt64, windowEnd: UInt64, expected: inout [Int], tally: inout Tally) {
        tally.received += 1
        if now <= windowEnd { tally.receivedInWindow += 1 }
        tally.latency.record(now >= record.sentNanoseconds ? now - record.sentNanoseconds : 0)
        if record.writer >= expected.count {
            guard record.writer < 4096 else { return }
            expected += Array(repeating: 0, count: record.writer + 1 - expected.count)
        }
        let next = expected[record.writer]
        if record.seq >= next {
            tally.gaps += record.seq - next
            expected[record.writer] = record.seq + 1
        } else {
            tally.orderViolations += 1
        }
    }
}

/// What the collector needs from a `ClientEvent`, with the receive time taken at once.
enum ClientEventView: Sendable {
    case opened
    case message([UInt8], receivedAt: UInt64)
    case closed(String)
}

/// A buffer handed into the lock for the duration of one call. Region checking would tie a
/// caller's pointer to the locked state; the collector only reads it and never keeps it.
private struct BorrowedBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
}
