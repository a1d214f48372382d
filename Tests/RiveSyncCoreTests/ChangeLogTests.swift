import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import Testing

/// The change-log seam with the in-memory log: every append answered once, in order; a
/// failure answers `appendFailed` and keeps nothing; a rejected record is not kept; a
/// compaction drops the records it covers.
@Suite struct ChangeLogTests {
    final class Recorder: LogSink {
        var events: [String] = []

        func committed(file: String, record: JournalRecord, ticket: LogTicket?) {
            events.append("committed \(file) \(ticket.map(\.description) ?? "-")")
        }

        func appendFailed(file: String, ticket: LogTicket, failure: LogFailure) {
            events.append("failed \(file) \(ticket) \(failure)")
        }
    }

    static let record = JournalRecord.deleteTarget("room")

    @Test func proposalsAreAnsweredOnceInOrder() {
        let log = MemoryChangeLog(retains: true)
        let sink = Recorder()
        log.append(Self.record, file: "demo", ticket: LogTicket(1), sink: sink)
        log.failNext = LogFailure("disk full")
        log.append(Self.record, file: "demo", ticket: LogTicket(2), sink: sink)
        log.append(Self.record, file: "demo", ticket: LogTicket(3), sink: sink)
        #expect(sink.events == ["committed demo ticket 1", "failed demo ticket 2 disk full", "committed demo ticket 3"])
        #expect(log.records["demo"] == [Self.record, Self.record])
        #expect(log.recordsSinceCompaction(of: "demo") == 2)
    }

    @Test func aRejectedRecordIsNotKept() {
        let log = MemoryChangeLog(retains: true)
        let sink = Recorder()
        log.append(Self.record, file: "demo", ticket: LogTicket(1), sink: sink)
        log.append(.publish(instance: InstanceID(7), name: "theme"), file: "demo", ticket: LogTicket(2), sink: sink)
        log.retract(file: "demo")
        #expect(log.records["demo"] == [Self.record])
        #expect(log.recordsSinceCompaction(of: "demo") == 1)
    }

    @Test func aCompactionDropsTheRecordsItCovers() throws {
        let log = MemoryChangeLog(retains: true)
        let sink = Recorder()
        for ticket in 1...3 { log.append(Self.record, file: "demo", ticket: LogTicket(UInt64(ticket)), sink: sink) }
        try log.compact(file: "demo", state: ["nextInstanceID": 1], targets: [])
        #expect(log.recordsSinceCompaction(of: "demo") == 0)
        #expect(log.snapshots["demo"]?.upTo == 3)
    }

    @Test func aLogThatDoesNotRetainNeverAsksForASnapshot() {
        let log = MemoryChangeLog(retains: false)
        let sink = Recorder()
        log.append(Self.record, file: "demo", ticket: LogTicket(1), sink: sink)
        #expect(sink.events == ["committed demo ticket 1"])
        #expect(log.recordsSinceCompaction(of: "demo") == 0)
    }

    @Test func recordsReadBackAsWritten() throws {
        let records: [JournalRecord] = [
            .createInstance(.name("Light", from: .name("Theme"))), .publish(instance: InstanceID(3), name: "theme"), .deleteTarget("room"),
            .advance(target: "room", commands: [QueuedCommand(id: 9, command: .set(path: "title", value: .string("hi")))]),
        ]
        for record in records {
            let read = try JournalRecord(json: .object(record.members), file: "demo", format: JournalRecord.format)
            #expect(read == record)
        }
    }
}
