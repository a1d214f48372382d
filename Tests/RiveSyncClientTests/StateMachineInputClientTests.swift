import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// A state machine's legacy inputs (PROTOCOL.md §8, §19) through the Swift client and a real
/// daemon, on state_machine_triggers.riv (its trigger input `Trigger 1` takes layer 0 out of
/// the state it stands in after 0.1 s, as Rive's runtime recorded in the
/// `legacy_input_triggers` trace), and `bindDefaults: false` on listener_view_model.riv.
final class StateMachineInputClientTests: ClientTestCase {
    func startTriggers() throws {
        let riv = DaemonProcess.packageRoot + "/../shared/fixtures/riv/"
        try startDaemon(
            configuration: """
                {"files": [{"name": "triggers", "path": "\(riv)state_machine_triggers.riv"},
                           {"name": "lvm", "path": "\(riv)listener_view_model.riv"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """)
    }

    func testInputsAreListedFiredAndRefusedWithTypedErrors() async throws {
        try startTriggers()
        let worker = try await connect()
        let artboard = try await File(source: .name("triggers"), worker: worker).createArtboard("main")
        let machine = try await artboard.createStateMachine(targetName: "legacy", manual: true)
        let inputs = try await machine.inputs()
        XCTAssertEqual(inputs.map(\.name), ["Trigger 1"])
        XCTAssertEqual(inputs.map(\.kind), [.trigger])
        XCTAssertEqual(inputs.map(\.value), [nil], "a trigger has no value")
        let listed = try await worker.getTargets().first { $0.name == "legacy" }
        XCTAssertEqual(listed?.inputs, inputs)

        await assertThrowsAsync(StateMachineError.noSuchInput(target: "legacy", name: "Nope")) {
            try await machine.fireInput(named: "Nope")
        }
        await assertThrowsAsync(StateMachineError.inputMismatch(name: "Trigger 1", expected: "trigger", actual: "number")) {
            try await machine.setInput(named: "Trigger 1", to: 1)
        }
        await assertThrowsAsync(StateMachineError.inputMismatch(name: "Trigger 1", expected: "trigger", actual: "boolean")) {
            try await machine.setInput(named: "Trigger 1", to: true)
        }
        XCTAssertEqual(
            "\(StateMachineError.noSuchInput(target: "legacy", name: "Nope"))", "the state machine of 'legacy' has no input 'Nope'")

        try await machine.advance(elapsed: 0.1)
        let before = try await machine.layers().first?.state
        XCTAssertEqual(before, 3, "Rive's runtime: layer 0 stands in state 3 after 0.1 s")
        let receipt = try await applied(machine) { try await machine.fireInput(named: "Trigger 1") }
        XCTAssertEqual(receipt.target, "legacy")
        try await machine.advance(elapsed: 0.1)
        let after = try await machine.layers().first?.state
        XCTAssertNotEqual(after, before, "the fired trigger moved layer 0 on")
        let consumed = try await machine.inputs()
        XCTAssertEqual(consumed, inputs, "a fired trigger is consumed and still listed")
    }

    /// A JSON schema's state machine with a number and a boolean input: set, listed with their
    /// new values, and refused when the call is for another kind.
    func testNumberAndBooleanInputsAreSet() async throws {
        let schema = """
            {"rivesyncSchema": 1, "viewModels": [{"name": "V", "properties": [{"name": "n", "type": "number"}]}],
             "artboards": [{"name": "A", "viewModel": "V", "stateMachines": [{"name": "sm",
               "inputs": [{"name": "speed", "type": "number", "value": 1}, {"name": "armed", "type": "boolean"}],
               "layers": [{"name": "L", "states": [{"type": "EntryState"}]}]}]}]}
            """
        try startDaemon(
            configuration: """
                {"files": [{"name": "inputs", "path": "inputs.json"}],
                 "stateMachines": [{"name": "sm", "file": "inputs", "artboard": "A"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """,
            files: ["inputs.json": schema])
        let worker = try await connect()
        let machine = try await worker.stateMachine(named: "sm")
        let authored = try await machine.inputs()
        XCTAssertEqual(authored.map(\.name), ["speed", "armed"])
        XCTAssertEqual(authored.map(\.kind), [.number, .boolean])
        XCTAssertEqual(authored.map(\.value), [.number(1), .boolean(false)])
        let receipt = try await machine.setInput(named: "speed", to: 2.5)
        XCTAssertEqual(receipt.target, "sm")
        try await machine.setInput(named: "armed", to: true)
        let set = try await machine.inputs()
        XCTAssertEqual(set.map(\.value), [.number(2.5), .boolean(true)])
        await assertThrowsAsync(StateMachineError.inputMismatch(name: "speed", expected: "number", actual: "boolean")) {
            try await machine.setInput(named: "speed", to: false)
        }
        await assertThrowsAsync(StateMachineError.inputMismatch(name: "armed", expected: "boolean", actual: "trigger")) {
            try await machine.fireInput(named: "armed")
        }
    }

    func testBindDefaultsFalseLeavesTheSlotsEmpty() async throws {
        try startTriggers()
        let worker = try await connect()
        try await worker.createStateMachine(named: "bound", file: "lvm", artboard: "main", manual: true)
        try await worker.createStateMachine(named: "bare", file: "lvm", artboard: "main", manual: true, bindDefaults: false)
        let targets = try await worker.getTargets()
        let bound = try XCTUnwrap(targets.first { $0.name == "bound" })
        let bare = try XCTUnwrap(targets.first { $0.name == "bare" })
        XCTAssertFalse(bound.bindings.isEmpty)
        XCTAssertTrue(bound.bindings.allSatisfy { $0.instance != nil }, "the authored defaults are bound")
        XCTAssertEqual(bare.bindings.map(\.slot), bound.bindings.map(\.slot))
        XCTAssertTrue(bare.bindings.allSatisfy { $0.instance == nil }, "bindDefaults false leaves every slot empty")
        let advanced = try await worker.stateMachine(named: "bare").advance(elapsed: 0.1)
        XCTAssertEqual(advanced.target, "bare", "a state machine advances before a bind")
    }
}
