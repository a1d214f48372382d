import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// Who gets a target's batches is kept with the target from batch to batch
/// (`TargetRecord.audience`): every change of its subscribers reaches the next batch.
@Suite struct WorkerAudienceTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)
    static let carol = ConnectionID(3)

    /// Alice sets the room's count to `value` and the room advances: the actions.
    static func publish(_ value: Double, on driver: WorkerDriver) -> [WorkerAction] {
        driver.request(.set(target: "room", path: "count", value: .number(value)), from: alice)
        driver.environment.clock += 200_000_000
        return driver.fire(.advance(target: "room"))
    }

    @Test func theNextBatchReachesTheSubscribersAsTheyAreThen() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        let first = Self.publish(1, on: driver)
        #expect(try WorkerDriver.types(first, to: Self.bob) == ["batch"] && WorkerDriver.types(first, to: Self.carol).isEmpty)

        driver.request(.subscribe(target: "room", paths: ["count"], cursor: nil), from: Self.carol)
        let second = Self.publish(2, on: driver)
        #expect(try WorkerDriver.types(second, to: Self.bob) == ["batch"], "the whole target's frame")
        let filtered = try WorkerDriver.messages(second, to: Self.carol)
        #expect(
            filtered.map { $0["type"] } == ["batch"] && filtered.first?["effects"]?.arrayValue?.first?["value"] == 2,
            "a new subscriber's frame")

        driver.request(.unsubscribe(target: "room"), from: Self.bob)
        let third = Self.publish(3, on: driver)
        #expect(try WorkerDriver.types(third, to: Self.bob).isEmpty && WorkerDriver.types(third, to: Self.carol) == ["batch"])

        driver.run(.closed(Self.carol))
        let fourth = Self.publish(4, on: driver)
        #expect(try WorkerDriver.types(fourth, to: Self.carol).isEmpty, "a closed connection's subscription is gone")
        #expect(try WorkerDriver.types(fourth, to: Self.alice) == ["ack"])
    }
}
