import RiveSyncCluster
import RiveSyncCore
import RiveSyncModel
import RiveSyncProtocol
import RiveSyncRedis
import Testing

/// A cluster entry's `v` is the earliest format whose nodes replay it exactly
/// (protocol/CLUSTER.md §2.3): 3 for a record of journal format 5, 2 for a timed advance, 1 for
/// the rest; every format reads back as it was written.
@Suite struct ClusterEntryFormatTests {
    static func entry(_ record: JournalRecord) -> ClusterEntry {
        ClusterEntry(kind: .record(file: "demo", record), node: "n1", token: "7", ticket: 1)
    }

    /// The entry as Redis would give it back.
    static func streamed(_ entry: ClusterEntry) -> RedisStreamEntry {
        var pairs: [(name: [UInt8], value: [UInt8])] = []
        var fields = entry.fields[...]
        while let name = fields.popFirst(), let value = fields.popFirst() { pairs.append((name.bytes, value.bytes)) }
        return RedisStreamEntry(id: RedisStreamID(milliseconds: 1, sequence: 0), fields: pairs)
    }

    static func version(_ entry: ClusterEntry) -> String? {
        streamed(entry).value("v").map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        (JournalRecord.createInstance(.blank(from: .name("Lobby"))), "3"),
        (.createInstance(.blank(from: .name("Lobby")), nested: .null), "1"),
        (
            .createStateMachine(
                StateMachineRequest(file: "demo", name: "room", artboard: "Lobby", stateMachine: "lobby", rate: 60, bindDefaults: false),
                nested: .null), "3"
        ),
        (.advance(target: "lobby", commands: [QueuedCommand(id: 1, command: .fireInput(name: "jump"))]), "3"),
        (.advance(target: "lobby", commands: [], elapsed: 0.25), "2"),
        (.advance(target: "lobby", commands: [QueuedCommand(id: 1, command: .fire(path: "wave"))]), "1"),
        (.deleteTarget("room"), "1"),
    ])
    func anEntryIsWrittenInTheEarliestFormatThatReplaysIt(record: JournalRecord, version: String) throws {
        let entry = Self.entry(record)
        #expect(Self.version(entry) == version)
        #expect(try ClusterEntry(Self.streamed(entry)) == entry)
    }

    @Test func anEntryOfALaterFormatIsRefused() {
        var pairs = Self.streamed(Self.entry(.deleteTarget("room"))).fields
        pairs[0].value = Array("4".utf8)
        #expect(throws: ClusterEntry.Invalid.self) {
            try ClusterEntry(RedisStreamEntry(id: RedisStreamID(milliseconds: 1, sequence: 0), fields: pairs))
        }
    }
}
