import RiveSyncCore
import RiveSyncJSON
import RiveSyncModel
import RiveSyncProtocol
import Testing

/// The worker core judges lag from the send queues the shell reports (`SendQueues`), never
/// from the transport: what it asks to measure, and what it decides on a report.
@Suite struct WorkerSendQueueTests {
    static let alice = ConnectionID(1)
    static let bob = ConnectionID(2)

    @Test func itAsksToMeasureItsSubscribersOnlyWhileTheTransportIsBackedUp() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.alice)
        let max = driver.environment.limits.maxSendQueueBytes
        #expect(driver.core.connectionsToMeasure(total: max / 2).isEmpty, "no connection can lag")
        #expect(driver.core.connectionsToMeasure(total: max / 2 + 1) == [Self.alice, Self.bob], "just backed up: every subscriber")
        // Bob lags at once (every subscriber was measured when the transport backed up).
        driver.shell.queued = [Self.bob: max]
        driver.request(.set(target: "room", path: "count", value: .number(1)), from: Self.alice)
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.alice) == ["batch", "ack"])
        #expect(driver.core.sendQueues.connections == [Self.alice: 0, Self.bob: max])
        // Still backed up: who was just sent to (Alice), and who lags (Bob).
        #expect(driver.core.connectionsToMeasure(total: max) == [Self.alice, Self.bob])
        // Over an eighth only: whether Bob has drained.
        #expect(driver.core.connectionsToMeasure(total: max / 8 + 1) == [Self.bob])
        #expect(driver.core.connectionsToMeasure(total: max / 8).isEmpty, "every connection has drained")
    }

    @Test func aSubscriberLagsOnTheReportedSizesAndOnNothingElse() throws {
        let driver = try WorkerDriver()
        driver.request(.subscribe(target: "room", paths: nil, cursor: nil), from: Self.bob)
        let full = driver.environment.limits.maxSendQueueBytes
        // The transport is full of another connection's bytes (not a subscriber here, so not
        // measured): the subscriber is judged by its own queue, empty.
        driver.shell.queued = [Self.alice: full]
        driver.request(.set(target: "room", path: "count", value: .number(1)), from: Self.alice)
        #expect(try WorkerDriver.types(driver.fire(.advance(target: "room")), to: Self.bob) == ["batch"])
        #expect(driver.core.sendQueues == SendQueues(total: full, connections: [Self.bob: 0]), "measured when it backed up")
        // The subscriber's own queue over half: it lags.
        driver.shell.queued = [Self.bob: full]
        driver.request(.set(target: "room", path: "count", value: .number(2)), from: Self.alice)
        driver.environment.clock += 200_000_000
        let advanced = driver.fire(.advance(target: "room"))
        #expect(driver.core.sendQueues == SendQueues(total: full, connections: [Self.bob: full]))
        #expect(try WorkerDriver.types(advanced, to: Self.bob).isEmpty, "a lagging subscriber gets no batch")
        #expect(WorkerDriver.timers(advanced).map(\.0).contains(.catchUpCheck))
    }
}
