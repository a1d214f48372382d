import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// The calls that return at once: applied in call order, seen by the reads after them, their
/// failures on `Worker.errors()`, handles from the nested `value(of:)` resolved in order.
final class QueuedCallTests: ClientTestCase {
    func testImmediateSettersApplyInCallOrderAndReadsSeeThem() async throws {
        try startDemo()
        let worker = try await connect()
        let other = try await connect()
        let main = try await worker.stateMachine(named: "character").mainInstance()
        let mood = NumberProperty(path: "mood")
        let observed = await Collector.start(try await other.target(named: "character").valueStream(at: "mood", includingCurrent: true))
        _ = try await observed.first(1)
        for value in 1...200 { main.setValue(of: mood, to: Float(value)) }
        let read = try await main.value(of: mood)
        XCTAssertEqual(read, 200, "a read sees every set queued before it")
        let values = try await waitFor("the observer to see 200") { () -> [Float]? in
            let values = await observed.elements.compactMap { if case .number(let n) = $0 { n } else { nil } }
            return values.last == 200 ? values : nil
        }
        XCTAssertEqual(values, values.sorted(), "another client sees the sets in call order: \(values)")
    }

    func testFailuresGoToTheErrorStreamAndTheQueueGoesOn() async throws {
        try startDemo()
        let worker = try await connect()
        let errors = worker.errors()
        let theme = try await worker.publishedInstance(named: "theme")
        theme.setValue(of: StringProperty(path: "nmae"), to: "typo")
        theme.setValue(of: EnumProperty(path: "mode"), to: "sepia")
        theme.setValue(of: NumberProperty(path: "name"), to: 1)
        theme.setValue(of: StringProperty(path: "name"), to: "after the failures")
        let name = try await theme.value(of: StringProperty(path: "name"))
        XCTAssertEqual(name, "after the failures")
        let failures = try await within { () -> [QueuedCallError] in
            var seen: [QueuedCallError] = []
            for await failure in errors {
                seen.append(failure)
                if seen.count == 3 { break }
            }
            return seen
        }
        // In the order they are found: the enum value is checked by the daemon, the others here.
        XCTAssertEqual(
            Set(failures.map(\.description)),
            [
                #"setValue(of: StringProperty(path: "nmae"), to: "typo") failed: no property at path 'nmae'"#,
                #"setValue(of: EnumProperty(path: "mode"), to: "sepia") failed: 'sepia' is not a value of the enum at 'mode' (allowed: light, dark)"#,
                #"setValue(of: NumberProperty(path: "name"), to: 1.0) failed: type mismatch: expected string, got number"#,
            ])
        let typed = failures.compactMap { $0.error as? ViewModelInstanceError }
        XCTAssertEqual(
            Set(typed),
            [
                .noSuchProperty(path: "nmae"), .invalidEnumValue(path: "mode", value: "sepia", allowed: ["light", "dark"]),
                .valueMismatch("string", "number"),
            ])
    }

    func testNestedHandlesResolveInCallOrder() async throws {
        try startDemo()
        let worker = try await connect()
        let errors = worker.errors()
        let file = try await File(source: .name("demo"), worker: worker)
        let lobby = try await worker.stateMachine(named: "lobby").mainInstance()
        let hostProperty = ViewModelInstanceProperty(path: "host")
        let replacement = try await file.createViewModelInstance(.name("Guest", from: .name("Player")))
        let host = lobby.value(of: hostProperty)
        lobby.setValue(of: hostProperty, to: replacement)
        let newHost = lobby.value(of: hostProperty)
        host.setValue(of: StringProperty(path: "name"), to: "first host")
        newHost.setValue(of: StringProperty(path: "name"), to: "second host")
        let hostID = try await host.instanceID
        let newHostID = try await newHost.instanceID
        let replacementID = try await replacement.instanceID
        XCTAssertNotEqual(hostID, newHostID, "each handle names the instance that was there when its call ran")
        XCTAssertEqual(newHostID, replacementID)
        let name = try await replacement.value(of: StringProperty(path: "name"))
        XCTAssertEqual(name, "second host")
        XCTAssertNotEqual(host, newHost)
        XCTAssertEqual(host, host)

        let players = ListProperty(path: "players")
        let missing = lobby.value(of: players, at: 3)
        missing.setValue(of: NumberProperty(path: "x"), to: 1)
        do {
            _ = try await missing.instanceID
            XCTFail("an item that is not there")
        } catch ViewModelInstanceError.indexOutOfRange(let path, let index, let count) {
            XCTAssertEqual([path, "\(index)", "\(count)"], ["players", "3", "0"])
        }
        let failures = try await within { () -> [String] in
            var calls: [String] = []
            for await failure in errors {
                calls.append(failure.call)
                if calls.count == 2 { break }
            }
            return calls
        }
        XCTAssertEqual(
            failures, [#"value(of: ListProperty(path: "players"), at: 3)"#, #"setValue(of: NumberProperty(path: "x"), to: 1.0)"#])
    }

    func testAManualStateMachineAppliesQueuedCallsAtAdvance() async throws {
        try startDemo()
        let worker = try await connect()
        let file = try await File(source: .name("demo"), worker: worker)
        let artboard = try await file.createArtboard("Character")
        let main = try await file.createViewModelInstance(.viewModelDefault(from: .artboardDefault(artboard)))
        let machine = try await artboard.createStateMachine(binding: main, targetName: "manual", manual: true)
        let target = try await worker.target(named: "manual")
        let seqBefore = try await target.seq()
        main.setValue(of: NumberProperty(path: "mood"), to: 3)
        main.fire(trigger: TriggerProperty(path: "success"))
        machine.advance(by: 1.0 / 60)
        let mood = try await main.value(of: NumberProperty(path: "mood"))
        let fires = try await main.fireCount(of: TriggerProperty(path: "success"))
        XCTAssertEqual(mood, 3)
        XCTAssertEqual(fires, 1)
        let seqAfter = try await target.seq()
        XCTAssertEqual(seqAfter, seqBefore + 1, "both calls applied by the one advance")

        let errors = worker.errors()
        let auto = try await worker.stateMachine(named: "character")
        auto.advance(by: 0.016)
        let failure = try await within { () -> QueuedCallError? in
            for await failure in errors { return failure }
            return nil
        }
        XCTAssertEqual(failure?.error as? StateMachineError, .notManual("character"))
    }
}
