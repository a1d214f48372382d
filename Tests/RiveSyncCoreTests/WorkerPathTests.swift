import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The worker core resolves a `set`'s path once, when it checks the command, and proposes the
/// command with where it led; the journal's codec writes the record as before, without it.
@Suite struct WorkerPathTests {
    @Test func theProposedAdvanceCarriesEachSetsResolutionAndItsRecordIsWrittenAsBefore() throws {
        let driver = try WorkerDriver()
        let main = try #require(try driver.core.files["demo"]?.target("room").instance(in: .main))
        driver.request(.set(target: "room", path: "count", value: 4), from: ConnectionID(1))
        let advanced = driver.fire(.advance(target: "room"))
        let records = advanced.compactMap { action -> JournalRecord? in
            guard case .append(let record, _, _) = action else { return nil }
            return record
        }
        guard case .advance(_, let commands, _)? = records.first, records.count == 1 else {
            Issue.record("one advance proposed: \(records)")
            return
        }
        let resolved = try #require(commands.first?.resolved, "the set carries its resolution")
        #expect(resolved.instance == main && resolved.property.name == "count" && resolved.value == .number(0))
        #expect(resolved.start == .slot(.main) && resolved.isDirect)
        #expect(try WorkerDriver.types(advanced, to: ConnectionID(1)) == ["ack"])
        #expect(try driver.core.files["demo"]?.value(at: "count", in: "room") == .number(4))

        let written = try JournalRecord(json: .object(records[0].members), file: "demo", format: JournalRecord.format)
        #expect(written == records[0], "the same record")
        guard case .advance(_, let read, _) = written else {
            Issue.record("read back: \(written)")
            return
        }
        #expect(read.first?.resolved == nil, "a resolution is never written")
        let encoded = try #require(records[0].members.first { $0.0 == "commands" }?.1.arrayValue?.first?.objectValue)
        #expect(encoded.map(\.0) == ["n", "c"], "number and command, as before: \(encoded)")
        #expect(encoded.last?.1 == JournalCodec.encode(commands[0].command))
    }
}
