import BenchLoadKit
import Testing

/// The open-loop schedule shared by the lws writers and the room clients.
struct RoundRobinPacerTests {
    /// Takes every send of `pacer`, with the time each was due.
    private func schedule(_ pacer: inout RoundRobinPacer) -> [(due: UInt64, writer: Int, seq: Int)] {
        var out: [(due: UInt64, writer: Int, seq: Int)] = []
        while let due = pacer.nextDue {
            let (writer, seq) = pacer.take()
            out.append((due, writer, seq))
        }
        return out
    }

    @Test func sendsRoundRobinWithPerWriterSequences() {
        // 3 writers, 1000 updates/s in total, 10 ms from t = 5 s: 10 sends, 1 ms apart.
        var pacer = RoundRobinPacer(writers: 3, rate: 1000, start: 5_000_000_000, end: 5_010_000_000)
        let sends = schedule(&pacer)
        #expect(sends.map(\.writer) == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
        #expect(sends.map(\.seq) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3])
        #expect(sends.map(\.due) == (0..<10).map { 5_000_000_000 + UInt64($0) * 1_000_000 })
        #expect(pacer.sent == 10)
    }

    @Test func eachWriterSendsAtItsShareOfTheRate() {
        // The rooms shape of one process: 1000 clients at 10 updates/s each for 2 s.
        var pacer = RoundRobinPacer(writers: 1000, rate: 10_000, start: 0, end: 2_000_000_000)
        let sends = schedule(&pacer)
        #expect(sends.count == 20_000)
        let byWriter = Dictionary(grouping: sends, by: \.writer)
        #expect(byWriter.count == 1000)
        #expect(byWriter.values.allSatisfy { $0.map(\.seq) == Array(0..<20) })
        // One writer's sends are 1 / (10 per second) apart.
        let first = byWriter[7]!.map(\.due)
        #expect(zip(first, first.dropFirst()).allSatisfy { $1 - $0 == 100_000_000 })
    }

    @Test func nothingIsDueAtOrAfterTheEnd() {
        var empty = RoundRobinPacer(writers: 2, rate: 100, start: 10, end: 10)
        #expect(empty.nextDue == nil)
        #expect(schedule(&empty).isEmpty)
        // 100/s over 25 ms: due at 0, 10 and 20 ms; the one at 30 ms is past the end.
        var short = RoundRobinPacer(writers: 2, rate: 100, start: 0, end: 25_000_000)
        #expect(schedule(&short).map(\.due) == [0, 10_000_000, 20_000_000])
    }
}
