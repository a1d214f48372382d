import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// A resume with paths replays the kept batches filtered to its paths, and replays none of them
/// when one cannot be read back (the worker then answers with a snapshot).
@Suite struct PathReplayTests {
    static let count = Effect(
        paths: ["count"], change: .set(instance: InstanceID(7), property: "count", value: .number(2), introduced: []))
    static let title = Effect(
        paths: ["title"], change: .set(instance: InstanceID(7), property: "title", value: .string("Hi"), introduced: []))

    static func batch(_ seq: UInt64, _ effects: [Effect]) -> ChangeBatch {
        ChangeBatch(
            target: "room", seq: seq, effects: effects, applied: [seq], rejected: [], authors: [seq: Author(client: "ann", token: nil)])
    }

    struct Unreadable: Error {}

    @Test func theKeptBatchesAreFilteredToThePathsAndEncodedAsALiveSubscriberGetsThem() throws {
        let kept = [Self.batch(1, [Self.count, Self.title]), Self.batch(2, [Self.title]), Self.batch(3, [Self.count])]
        let frames = try PathReplay.frames(kept, paths: ["count"], epoch: "e-1", withAuthors: true, headroom: 16, batch: { $0 })
        let expected = [kept[0], kept[2]].map { batch in
            ServerMessage.batch(ServerMessage.Batch(batch, epoch: "e-1", effects: [Self.count], withAuthors: true)).serialized()
        }
        #expect(frames.map(\.bytes) == expected)
        #expect(frames.allSatisfy { $0.storage.headroom == 16 }, "encoded once, after the shell's headroom")
    }

    @Test func aBatchThatCannotBeReadBackFailsTheWholeReplay() {
        let kept: [UInt64] = [1, 2, 3]
        var read: [UInt64] = []
        #expect(throws: Unreadable.self) {
            try PathReplay.frames(kept, paths: ["count"], epoch: "e-1", withAuthors: false, headroom: 0) { seq in
                read.append(seq)
                guard seq != 2 else { throw Unreadable() }
                return Self.batch(seq, [Self.count])
            }
        }
        #expect(read == [1, 2], "stops at the unreadable batch")
    }
}
