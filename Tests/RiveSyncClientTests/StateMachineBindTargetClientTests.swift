import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// A data bind's target written through the Swift client (PROTOCOL.md §8 `setBindTarget`) on a
/// real daemon, on bidirectional_precedence.riv: on its artboard `source_first`, binds 0 and 1
/// are two-way binds of a shape's x and y (the `twoway_target_change` trace).
final class StateMachineBindTargetClientTests: ClientTestCase {
    func testABindTargetReachesTheViewModelAsTheStateMachinesChange() async throws {
        let riv = DaemonProcess.packageRoot + "/../shared/fixtures/riv/bidirectional_precedence.riv"
        try startDaemon(
            configuration: """
                {"files": [{"name": "twoway", "path": "\(riv)"}],
                 "stateMachines": [{"name": "twoway", "file": "twoway", "artboard": "source_first", "mode": "manual"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """)
        let worker = try await connect()
        let machine = try await worker.stateMachine(named: "twoway")
        let target = try await worker.target(named: "twoway")
        try await machine.advance()

        await assertThrowsAsync(StateMachineError.noSuchDataBind(target: "twoway", bind: 9)) {
            try await machine.setBindTarget(9, to: .number(1))
        }
        await assertThrowsAsync(StateMachineError.bindTargetMismatch(bind: 0, expected: "number", actual: "boolean")) {
            try await machine.setBindTarget(0, to: .boolean(true))
        }
        XCTAssertEqual(
            "\(StateMachineError.noSuchDataBind(target: "twoway", bind: 9))",
            "the state machine of 'twoway' has no data bind 9 a client can write")

        // Subscribed from the current state: the stream's first element is the starting point.
        let batches = await Collector.start(target.batches(includingCurrent: true))
        _ = try await batches.first(1)
        let receipt = try await applied(machine) { try await machine.setBindTarget(1, to: .number(800)) }
        let batch = try await batches.first(2)[1]
        XCTAssertEqual(batch.seq, receipt.seq)
        XCTAssertEqual(batch.changes, [.set(path: "y", value: .number(800))])
        XCTAssertEqual(batch.origins, [.stateMachine], "the state machine carried it through the two-way bind")
        let (_, y) = try await target.value(at: "y")
        XCTAssertEqual(y, .number(800))
    }
}
