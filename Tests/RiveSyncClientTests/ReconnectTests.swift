import XCTest

@testable import RiveSyncClient

/// A dropped connection comes back by itself; streams go on from the last batch they saw.
final class ReconnectTests: ClientTestCase {
    /// The daemon still has the missed batches: the client resumes from its cursor and the
    /// stream yields every value exactly once, in order.
    func testResumeFromCursorLosesAndRepeatsNothing() async throws {
        try startDemo()
        let watcher = try await connect()
        let writer = try await connect()
        let mood = NumberProperty(path: "mood")
        let watched = try await watcher.stateMachine(named: "character").mainInstance()
        let written = try await writer.stateMachine(named: "character").mainInstance()
        let values = await Collector.start(watched.valueStream(of: mood, includingCurrent: true))
        try await assertEqualAsync(try await values.first(1), [0])
        for value in 1...4 { try await written.confirmed.setValue(of: mood, to: Float(value)) }
        await watcher.dropConnection(holdingReconnect: true)
        for value in 5...7 { try await written.confirmed.setValue(of: mood, to: Float(value)) }
        await watcher.releaseReconnect()
        for value in 8...10 { try await written.confirmed.setValue(of: mood, to: Float(value)) }
        let seen = try await values.first(11)
        XCTAssertEqual(seen, (0...10).map(Float.init))
        let readBack = try await watched.value(of: mood)
        XCTAssertEqual(readBack, 10)
        let total = await values.elements.count
        XCTAssertEqual(total, 11, "no value repeated after the resume")
    }

    /// The daemon no longer has the missed batches (its history is 16): the client starts
    /// again from a snapshot; streams yield the latest value and the fires missed.
    func testResumeFallsBackToASnapshot() async throws {
        try startDaemon(configuration: TypesSchema.configuration, files: ["types.json": TypesSchema.schema])
        let watcher = try await connect()
        let writer = try await connect()
        let count = NumberProperty(path: "count")
        let ping = TriggerProperty(path: "ping")
        let watched = try await watcher.publishedInstance(named: "all")
        let written = try await writer.publishedInstance(named: "all")
        let values = await Collector.start(watched.valueStream(of: count, includingCurrent: true))
        let fires = await Collector.start(watched.stream(of: ping))
        let batches = await Collector.start(try await watcher.target(named: "all").batches())
        try await assertEqualAsync(try await values.first(1), [0])
        let warmUp = try await written.confirmed.fire(trigger: ping)
        try await assertEqualAsync(try await fires.first(1).count, 1, "the fire stream is registered")
        try await assertEqualAsync(try await batches.first(1).map(\.seq), [warmUp.seq])

        await watcher.dropConnection(holdingReconnect: true)
        for value in 1...20 { try await written.confirmed.setValue(of: count, to: Float(value)) }
        for _ in 0..<3 { try await written.confirmed.fire(trigger: ping) }
        await watcher.releaseReconnect()

        try await assertEqualAsync(try await fires.first(4).count, 4, "one element per fire missed")
        let resync = try await batches.first(2)[1]
        XCTAssertTrue(resync.isResync)
        XCTAssertEqual(resync.seq, warmUp.seq + 23)
        try await assertEqualAsync(try await values.first(2), [0, 20], "the latest value, not the ones replaced")
        let latest = try await watched.value(of: count)
        XCTAssertEqual(latest, 20)
    }
}
