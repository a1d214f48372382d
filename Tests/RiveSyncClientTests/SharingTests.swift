import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// Two connections share a state machine: each sees the other's writes, in the same order.
final class SharingTests: ClientTestCase {
    func testTwoConnectionsSeeEachOthersWritesInTheSameOrder() async throws {
        try startDemo()
        let a = try await connect()
        let b = try await connect()
        let targetA = try await a.target(named: "character")
        let targetB = try await b.target(named: "character")
        let batchesA = targetA.batches()
        let batchesB = targetB.batches()
        let mainA = try await a.stateMachine(named: "character").mainInstance()
        let mainB = try await b.stateMachine(named: "character").mainInstance()
        let mood = NumberProperty(path: "mood")
        let writers = [(mainA, Float(1)), (mainB, Float(101))].map { instance, base in
            Task {
                for step in 0..<10 { try await instance.confirmed.setValue(of: mood, to: base + Float(step)) }
            }
        }
        for writer in writers { try await writer.value }
        let finalSeq = try await targetA.info().seq
        func collect(_ stream: AsyncThrowingStream<Batch, any Error>) async throws -> [Batch] {
            try await within {
                var seen: [Batch] = []
                for try await batch in stream {
                    seen.append(batch)
                    if batch.seq == finalSeq { break }
                }
                return seen
            }
        }
        let seenA = try await collect(batchesA)
        let seenB = try await collect(batchesB)
        XCTAssertEqual(seenA, seenB)
        XCTAssertEqual(seenA.map(\.seq), Array(seenA.first!.seq...finalSeq))
        let written = seenA.flatMap(\.changes).compactMap { change -> Float? in
            if case .set("mood", .number(let n)) = change { n } else { nil }
        }
        XCTAssertEqual(written.filter { $0 < 100 }, written.filter { $0 < 100 }.sorted(), "A's writes keep A's order")
        XCTAssertEqual(written.filter { $0 > 100 }, written.filter { $0 > 100 }.sorted(), "B's writes keep B's order")
        let moodA = try await mainA.value(of: mood)
        let moodB = try await mainB.value(of: mood)
        XCTAssertEqual(written.last, moodA)
        XCTAssertEqual(moodA, moodB)
    }

    func testStreamsStartWithTheCurrentValueOnRequestAndAreIndependent() async throws {
        try startDemo()
        let a = try await connect()
        let b = try await connect()
        let theme = try await a.publishedInstance(named: "theme")
        let themeB = try await b.publishedInstance(named: "theme")
        let name = StringProperty(path: "name")
        let twinA = theme.valueStream(of: name, includingCurrent: true)
        let twinB = theme.valueStream(of: name, includingCurrent: true)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let readerA = Task { for try await value in twinA { sink.yield("A:" + value) } }
        let readerB = Task {
            var seen: [String] = []
            for try await value in twinB {
                seen.append(value)
                sink.yield("B:" + value)
                if seen.count == 2 { break }
            }
            return seen
        }
        let firsts = try await within {
            var seen = Set<String>()
            for await event in events {
                seen.insert(event)
                if seen.count == 2 { break }
            }
            return seen
        }
        XCTAssertEqual(firsts, ["A:Light", "B:Light"], "both streams start with the current value")
        readerA.cancel()
        _ = await readerA.result
        try await themeB.confirmed.setValue(of: name, to: "Dusk")
        let seenB = try await within { try await readerB.value }
        XCTAssertEqual(seenB, ["Light", "Dusk"], "ending one of two identical streams does not silence the other")
        let read = try await theme.value(of: name)
        XCTAssertEqual(read, "Dusk")
    }

    func testSynchronizeMakesAWriteVisibleThroughEveryTargetItReached() async throws {
        try startDemo()
        let worker = try await connect()
        let theme = try await worker.publishedInstance(named: "theme")
        let character = try await worker.target(named: "character")
        let lobby = try await worker.target(named: "lobby")
        for round in 0..<20 {
            let name = "Theme \(round)"
            try await theme.confirmed.setValue(of: StringProperty(path: "name"), to: name)
            try await worker.synchronize()
            let seenByCharacter = try await character.value(at: "@Theme/name").value
            let seenByLobby = try await lobby.value(at: "@Theme/name").value
            XCTAssertEqual(seenByCharacter, .string(name))
            XCTAssertEqual(seenByLobby, .string(name))
        }
    }

    func testDeletingATargetEndsEveryClientsStreamsWithTargetDeleted() async throws {
        try startDemo()
        let a = try await connect()
        let b = try await connect()
        let mood = NumberProperty(path: "mood")
        let mainB = try await b.stateMachine(named: "character").mainInstance()
        let moods = mainB.valueStream(of: mood, includingCurrent: true)
        let (seen, sink) = AsyncStream.makeStream(of: Float.self)
        let reader = Task { () -> [Float] in
            var values: [Float] = []
            for try await value in moods {
                values.append(value)
                sink.yield(value)
            }
            return values
        }
        let firstValue = Task { () -> Float? in
            for await value in seen { return value }
            return nil
        }
        let current = try await within { await firstValue.value }
        XCTAssertEqual(current, 0, "the stream is listening before the delete")
        let freed = try await a.deleteTarget(named: "character")
        XCTAssertFalse(freed.isEmpty, "the character's own main instance is freed")
        do {
            let seen = try await within { try await reader.value }
            XCTFail("the stream ended without an error after \(seen)")
        } catch StateMachineError.targetDeleted(let name) {
            XCTAssertEqual(name, "character")
        }
        do {
            try await a.deleteTarget(named: "character")
            XCTFail("deleted twice")
        } catch StateMachineError.unknownTarget(let name) {
            XCTAssertEqual(name, "character")
        }
    }

    func testCloseDeletesTheWorkersPrivateTargetsAndFreesWhatOnlyTheyHeld() async throws {
        try startDemo()
        let a = try await connect()
        let observer = try await connect()
        let file = try await File(source: .name("demo"), worker: a)
        let player = try await file.createViewModelInstance(.viewModelDefault(from: .name("Player")))
        let playerID = try await player.instanceID
        try await player.confirmed.setValue(of: StringProperty(path: "name"), to: "anchored")
        _ = try await file.createArtboard("Lobby").createStateMachine()
        let shared = try await file.createViewModelInstance(.viewModelDefault(from: .name("Player")))
        let lobby = try await a.stateMachine(named: "lobby").mainInstance()
        try await lobby.confirmed.appendInstance(shared, to: ListProperty(path: "players"))
        try await shared.confirmed.setValue(of: StringProperty(path: "name"), to: "in the lobby")
        @Sendable func privateNames() async throws -> [String] {
            try await observer.getTargets().map(\.name).filter { $0.hasPrefix("~") }
        }
        let before = try await privateNames()
        XCTAssertEqual(before.count, 2, "an anchor for the player and the unnamed state machine: \(before)")

        await a.close()
        try await waitUntil("the closed client's private names to go") { try await privateNames().isEmpty }
        let theme = try await observer.target(named: "theme")
        do {
            _ = try await theme.value(at: "#\(playerID)/name")
            XCTFail("the anchored player was not freed")
        } catch ViewModelInstanceError.unknownInstance(let id) {
            XCTAssertEqual(id, playerID)
        }
        let kept = try await observer.target(named: "lobby").value(at: "players/0/name")
        XCTAssertEqual(kept.value, .string("in the lobby"), "an instance the lobby holds stays")
    }
}
