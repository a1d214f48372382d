import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// A state machine the daemon runs (PROTOCOL.md §8, §19) through the Swift client, on Rive's own
/// test files from `../shared/fixtures/riv` (a missing file fails the daemon's start, so the
/// test): advances with elapsed seconds and their receipts, batches that say which changes the
/// state machine made, its events and layer states, escaped names in paths, and a bridge that
/// renders what the daemon's state machine decided and sends nothing of its own back.
@MainActor
final class StateMachineClientTests: ClientTestCase {
    static let riv = DaemonProcess.packageRoot + "/../shared/fixtures/riv/"

    /// A daemon with `lvm` (listener_view_model.riv: listeners on `col` and `tri` write `num1`,
    /// which binds carry to `num2` and `num3`) as a manual target, and `ding`
    /// (vm_listener_fire_event.riv: a listener on the trigger `go` reports the event `ding`).
    func startStateMachines() throws {
        try startDaemon(
            configuration: """
                {"files": [{"name": "lvm", "path": "\(Self.riv)listener_view_model.riv"},
                           {"name": "events", "path": "\(Self.riv)vm_listener_fire_event.riv"}],
                 "stateMachines": [{"name": "lvm", "file": "lvm", "artboard": "main", "mode": "manual"},
                                   {"name": "ding", "file": "events", "artboard": "Artboard", "mode": "manual"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """)
    }

    func testAdvanceReceiptsAndWhatTheStateMachineDidInEachBatch() async throws {
        try startStateMachines()
        let worker = try await connect()
        let machine = try await worker.stateMachine(named: "lvm")
        let target = try await worker.target(named: "lvm")
        let settledAtStart = try await machine.isSettled()
        XCTAssertFalse(settledAtStart, "a new state machine stands in its entry states")
        // Subscribed before the first advance: the stream's first element is the starting point.
        let batches = await Collector.start(target.batches(includingCurrent: true))
        let start = try await batches.waitFor(1)
        XCTAssertEqual(start.map(\.isResync), [true])
        let entered = try await machine.advance()
        XCTAssertEqual(entered, AdvanceReceipt(target: "lvm", seq: 1, settled: false))
        let receipt = try await applied(machine) { try await target.setValue(at: "col", to: .color(Color(0x6400_0A0F))) }
        XCTAssertEqual(receipt.seq, 2)
        let seen = Array(try await batches.waitFor(3).dropFirst())
        XCTAssertEqual(seen[0].layers.map(\StateMachineLayer.animation), ["Timeline 1"])
        XCTAssertEqual(seen[0].layers.map(\StateMachineLayer.kind), [StateMachineLayer.Kind.animation])
        XCTAssertFalse(seen[0].settled)
        let layers = try await machine.layers()
        XCTAssertEqual(layers, seen[0].layers, "listTargets shows the layers' current states")

        let batch = seen[1]
        XCTAssertEqual(batch.origins, [Batch.Origin.command, .stateMachine, .stateMachine, .stateMachine], "\(batch.changes)")
        XCTAssertEqual(batch.changes.first, Batch.Change.set(path: "col", value: .color(Color(0x6400_0A0F))))
        XCTAssertEqual(
            Set(batch.stateMachineChanges),
            Set<Batch.Change>(
                [.set(path: "num1", value: .number(22)), .set(path: "num2", value: .number(22)), .set(path: "num3", value: .number(22))]))
        let later = try await machine.advance(elapsed: 0.5)
        XCTAssertEqual(later.target, "lvm")
        do {
            try await machine.advance(elapsed: 61)
            XCTFail("61 s is more than an advance may run")
        } catch {
            XCTAssertTrue("\(error)".contains("bad_message"), "\(error)")
        }
    }

    func testEventsReportedInAnAdvanceArriveWithItsBatch() async throws {
        try startStateMachines()
        let worker = try await connect()
        let machine = try await worker.stateMachine(named: "ding")
        let target = try await worker.target(named: "ding")
        let batches = await Collector.start(target.batches(includingCurrent: true))
        _ = try await batches.waitFor(1)
        try await machine.advance()
        let receipt = try await applied(machine) { try await target.fire(at: "go") }
        let batch = try await batches.waitFor(2)[1]
        XCTAssertEqual(batch.seq, receipt.seq)
        XCTAssertEqual(batch.events.map(\StateMachineEvent.name), ["ding"])
        XCTAssertEqual(batch.events.first?.delay, 0)
        XCTAssertEqual(batch.origins, [Batch.Origin.command])
    }

    func testViewModelPathsEscapeNames() async throws {
        XCTAssertEqual(ViewModelPath("BG On/Off").description, "BG On~1Off")
        XCTAssertEqual(ViewModelPath.global("Look/Feel").appending("a~b").description, "@Look~1Feel/a~0b")
        XCTAssertEqual(ViewModelPath("players").appending(index: 2).appending("x/y").description, "players/2/x~1y")
        XCTAssertEqual(ViewModelPath.instance(17).appending("x").description, "#17/x")
        XCTAssertEqual(ViewModelPath.unescape("a~01b"), "a~1b")
        XCTAssertNil(ViewModelPath.unescape("a~b"))
        let schema = """
            {"rivesyncSchema": 1,
             "viewModels": [{"name": "Panel", "properties": [{"name": "BG On/Off", "type": "boolean"}]}],
             "artboards": [{"name": "Main", "viewModel": "Panel", "stateMachines": ["sm"]}]}
            """
        try startDaemon(
            configuration: """
                {"files": [{"name": "panel", "path": "panel.json"}], "stateMachines": [{"name": "panel", "file": "panel", "artboard": "Main"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """, files: ["panel.json": schema])
        let worker = try await connect()
        let target = try await worker.target(named: "panel")
        let path = ViewModelPath("BG On/Off").description
        try await target.setValue(at: path, to: .boolean(true))
        let (_, value) = try await target.value(at: path)
        XCTAssertEqual(value, .boolean(true))
        let main = try await worker.stateMachine(named: "panel").mainInstance()
        let viaHandle = try await main.value(of: BoolProperty(path: path))
        XCTAssertTrue(viaHandle)
    }

    func testTheBridgeRendersTheDaemonsStateMachineAndSendsNothingBack() async throws {
        try startStateMachines()
        let driver = try await connect()
        let machine = try await driver.stateMachine(named: "lvm")
        let target = try await driver.target(named: "lvm")
        let app = try await connect()
        let rive = RiveDouble(viewModels: [
            "vm1": .init(properties: [
                "col": .value(.color(Color(0xFF00_0000))), "num1": .value(.number(0)), "num2": .value(.number(0)),
                "num3": .value(.number(0)), "tri": .trigger,
            ])
        ])
        let local = rive.makeInstance("vm1")
        let bridge = try await RiveSyncBridge.bind(try await app.stateMachine(named: "lvm").mainInstance(), to: local) {
            rive.makeInstance($0)
        }
        XCTAssertFalse(bridge.forwardsLocalChanges, "the daemon runs this state machine")
        let localFires = await Collector.start(local.triggerStream(at: "tri"))
        try await machine.advance()
        _ = try await applied(machine) { try await target.setValue(at: "col", to: .color(Color(0x6400_0A0F))) }
        try await waitUntil("the state machine's writes reach the local instance") {
            try await local.value(at: "num3", kind: .number) == .number(22)
        }
        _ = try await applied(machine) { try await target.fire(at: "tri") }
        try await waitUntil("a client's fire reaches the local trigger") { await localFires.elements.count == 1 }
        // The local state machine would make its own writes and fires: none goes back.
        local.setValue(.number(99), at: "num1")
        local.fire(at: "tri")
        _ = try await applied(machine) { try await target.setValue(at: "num2", to: .number(7)) }
        try await waitUntil("a later write reaches the local instance") { try await local.value(at: "num2", kind: .number) == .number(7) }
        let (_, num1) = try await target.value(at: "num1")
        XCTAssertEqual(num1, .number(32), "the daemon's listener added 10 for the one client fire")
        let (_, fires) = try await target.value(at: "tri")
        XCTAssertEqual(fires, .trigger(fires: 1), "the local fire stayed local")
        XCTAssertEqual(bridge.remoteWrites, 0)
        XCTAssertEqual(rive.errors, [])
        bridge.unbind()
    }

    func testTheBridgeLeavesTheStateMachinesOwnFiresToTheLocalStateMachine() async throws {
        try startDaemon(
            configuration: """
                {"files": [{"name": "triggers", "path": "\(Self.riv)data_binding_test_triggers.riv"}],
                 "auth": {"allowAnonymous": "loopback"}}
                """)
        let worker = try await connect()
        let file = try await File(source: .name("triggers"), worker: worker)
        let root = try await file.createViewModelInstance(.blank(from: .name("vm_root")))
        let machine = try await file.createArtboard("root").createStateMachine(binding: root, targetName: "root", manual: true)
        let rive = RiveDouble(viewModels: ["vm_root": .init(properties: ["trigger": .trigger])])
        let local = rive.makeInstance("vm_root")
        let bridge = try await RiveSyncBridge.bind(try await machine.mainInstance(), to: local) { rive.makeInstance($0) }
        XCTAssertFalse(bridge.forwardsLocalChanges)
        let localFires = await Collector.start(local.triggerStream(at: "trigger"))
        // A nested timeline's event at 0.7 s makes the state machine fire `trigger`.
        for elapsed in [0, 0.7, 0.1] { try await machine.advance(elapsed: elapsed) }
        let target = try await worker.target(named: "root")
        let (_, fires) = try await target.value(at: "trigger")
        XCTAssertEqual(fires, .trigger(fires: 1), "the state machine fired it")
        // A client's fire after it does reach the local trigger: the state machine's did not.
        _ = try await applied(machine) { try await target.fire(at: "trigger") }
        let seen = try await localFires.waitFor(1).count
        XCTAssertEqual(seen, 1)
        XCTAssertEqual(bridge.localWrites, 1, "one local fire: the client's")
        bridge.unbind()
    }
}
