import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// `RiveSyncBridge` between the real daemon and local instances of `RiveDouble` (Rive's
/// semantics): two apps bridged to one state machine converge, a change in one reaches the
/// other's local instance, concurrent edits settle without a loop, lists and nested instances
/// follow the daemon, and unbinding stops both directions.
@MainActor
final class BridgeTests: ClientTestCase {
    /// One app: its connection, its local Rive (the double) and the bridge.
    struct App {
        let worker: Worker
        let rive: RiveDouble
        let local: RiveInstanceDouble
        let bridge: RiveSyncBridge<RiveInstanceDouble>
    }

    func app(_ target: String, viewModel: String) async throws -> App {
        let worker = try await connect()
        let rive = RiveDouble.demo()
        let local = rive.makeInstance(viewModel)
        let remote = try await worker.stateMachine(named: target).mainInstance()
        // Both ways on purpose: these tests are about the two-way bridge (the demo's `character`
        // now runs a state machine graph, for which the default sends nothing back).
        let bridge = try await RiveSyncBridge.bind(remote, to: local, forwardingLocalChanges: true) { rive.makeInstance($0) }
        return App(worker: worker, rive: rive, local: local, bridge: bridge)
    }

    func testTwoAppsConvergeAndAChangeInOneReachesTheOther() async throws {
        try startDemo()
        let writer = try await connect()
        let shared = try await writer.stateMachine(named: "character").mainInstance()
        try await shared.confirmed.setValue(of: NumberProperty(path: "mood"), to: 4)
        let a = try await app("character", viewModel: "Character")
        let b = try await app("character", viewModel: "Character")
        try await waitUntil("the daemon's value reaches both apps at binding") {
            let (inA, inB) = (try await a.local.value(at: "mood", kind: .number), try await b.local.value(at: "mood", kind: .number))
            return inA == .number(4) && inB == .number(4)
        }

        a.local.setValue(.number(7), at: "mood")
        try await waitUntil("A's change reaches B's local instance") { try await b.local.value(at: "mood", kind: .number) == .number(7) }
        let remoteMood = try await shared.value(of: NumberProperty(path: "mood"))
        XCTAssertEqual(remoteMood, 7)

        try await shared.confirmed.setValue(of: NumberProperty(path: "mood"), to: 2)
        try await waitUntil("a remote write reaches both") {
            let (inA, inB) = (try await a.local.value(at: "mood", kind: .number), try await b.local.value(at: "mood", kind: .number))
            return inA == .number(2) && inB == .number(2)
        }

        let firesInA = await Collector.start(a.local.triggerStream(at: "success"))
        _ = try await a.local.value(at: "mood", kind: .number)
        b.local.fire(at: "success")
        try await waitUntil("B's fire reaches A's local trigger") { await firesInA.elements.count == 1 }
        let count = try await shared.fireCount(of: TriggerProperty(path: "success"))
        XCTAssertEqual(count, 1, "one fire in the daemon")
        let settled = try await settle([a, b], shared)
        XCTAssertTrue(settled, "the apps settled after the fire")
        let after = try await shared.fireCount(of: TriggerProperty(path: "success"))
        XCTAssertEqual(after, 1, "A did not send the fire back")
        let seenInA = await firesInA.elements.count
        XCTAssertEqual(seenInA, 1)
        XCTAssertEqual(a.rive.errors + b.rive.errors, [])
    }

    func testConcurrentEditsSettleOnOneValueWithoutALoop() async throws {
        try startDemo()
        let a = try await app("character", viewModel: "Character")
        let b = try await app("character", viewModel: "Character")
        let shared = try await a.worker.stateMachine(named: "character").mainInstance()
        for step in 1...50 {
            a.local.setValue(.number(Float(step)), at: "mood")
            b.local.setValue(.number(Float(100 + step)), at: "mood")
            await Task.yield()
        }
        try await waitUntil("both apps and the daemon agree") {
            let remote = LocalValue.number(try await shared.value(of: NumberProperty(path: "mood")))
            let (inA, inB) = (try await a.local.value(at: "mood", kind: .number), try await b.local.value(at: "mood", kind: .number))
            return inA == remote && inB == remote
        }
        let settled = try await settle([a, b], shared)
        XCTAssertLessThanOrEqual(a.bridge.remoteWrites, 50, "A sent at most its own changes")
        XCTAssertLessThanOrEqual(b.bridge.remoteWrites, 50, "B sent at most its own changes")
        XCTAssertTrue(settled, "no write after the apps agreed")
    }

    func testListsAndNestedInstancesFollowTheDaemon() async throws {
        try startDemo()
        let editor = try await connect()
        let file = try await File(source: .name("demo"), worker: editor)
        let lobby = try await editor.stateMachine(named: "lobby").mainInstance()
        let players = ListProperty(path: "players")
        let ada = try await file.createViewModelInstance(.blank(from: .name("Player")))
        ada.setValue(of: StringProperty(path: "name"), to: "Ada")
        lobby.appendInstance(ada, to: players)
        let a = try await app("lobby", viewModel: "Lobby")
        let b = try await app("lobby", viewModel: "Lobby")
        func names(_ app: App) -> [String] {
            app.local.items("players").map { if case .string(let name)? = $0.values["name"] { name } else { "?" } }
        }
        try await waitUntil("the list at binding") { names(a) == ["Ada"] && names(b) == ["Ada"] }

        let bob = try await file.createViewModelInstance(.blank(from: .name("Player")))
        bob.setValue(of: StringProperty(path: "name"), to: "Bob")
        lobby.insertInstance(bob, to: players, at: 0)
        try await waitUntil("an insert") { names(a) == ["Bob", "Ada"] && names(b) == ["Bob", "Ada"] }
        lobby.swapInstance(atIndex: 0, withIndex: 1, in: players)
        try await waitUntil("a swap") { names(a) == ["Ada", "Bob"] }
        let adaInA = a.local.items("players")[0]
        let adaID = try await ada.instanceID
        XCTAssertTrue(adaInA === a.bridge.localInstance(for: adaID), "the same local instance moved")

        adaInA.setValue(.string("Ada L."), at: "name")
        try await waitUntil("a list item's local change reaches the daemon and B") {
            let name = try await ada.value(of: StringProperty(path: "name"))
            return name == "Ada L." && names(b) == ["Ada L.", "Bob"]
        }
        lobby.removeInstance(at: 0, from: players)
        try await waitUntil("a removal") { names(a) == ["Bob"] && names(b) == ["Bob"] }

        let host = try await file.createViewModelInstance(.blank(from: .name("Player")))
        host.setValue(of: StringProperty(path: "name"), to: "New host")
        lobby.setValue(of: ViewModelInstanceProperty(path: "host"), to: host)
        try await waitUntil("a nested replacement") {
            let (inA, inB) = (
                try await a.local.value(at: "host/name", kind: .string), try await b.local.value(at: "host/name", kind: .string)
            )
            return inA == .string("New host") && inB == .string("New host")
        }
        b.local.instance(at: "host").setValue(.number(3), at: "x")
        try await waitUntil("the new nested instance is bridged both ways") {
            let (remote, inA) = (try await host.value(of: NumberProperty(path: "x")), try await a.local.value(at: "host/x", kind: .number))
            return remote == 3 && inA == .number(3)
        }
        XCTAssertEqual(a.rive.errors + b.rive.errors, [])
    }

    func testUnbindStopsBothDirections() async throws {
        try startDemo()
        let a = try await app("lobby", viewModel: "Lobby")
        let states = await Collector.start(
            AsyncThrowingStream { continuation in
                Task { @MainActor in
                    for await state in a.bridge.states() { continuation.yield(state) }
                    continuation.finish()
                }
            })
        let lobby = try await a.worker.stateMachine(named: "lobby").mainInstance()
        try await waitUntil("bound") { try await a.local.value(at: "title", kind: .string) == .string("Preview lobby") }
        a.bridge.unbind()
        try await lobby.confirmed.setValue(of: StringProperty(path: "title"), to: "remote after unbind")
        a.local.setValue(.string("local after unbind"), at: "title")
        let local = try await a.local.value(at: "title", kind: .string)
        try await a.worker.synchronize()
        let remote = try await lobby.value(of: StringProperty(path: "title"))
        XCTAssertEqual(local, .string("local after unbind"))
        XCTAssertEqual(remote, "remote after unbind")
        let seen = try await states.first(2)
        XCTAssertEqual(seen, [.bound, .unbound])
    }

    /// Lets everything in flight land, then checks that nothing moves any more: no bridge
    /// writes either way and no new batch, over several round trips through both apps' local
    /// queues and the daemon. Returns whether it stayed still.
    func settle(_ apps: [App], _ shared: ViewModelInstance) async throws -> Bool {
        func snapshot() async throws -> [Int] {
            var counts: [Int] = []
            for app in apps {
                try await app.worker.synchronize()
                _ = try await app.rive.makeInstance("Player").value(at: "x", kind: .number)
                counts += [app.bridge.remoteWrites, app.bridge.localWrites]
            }
            return counts + [Int(try await RemoteTarget(worker: shared.worker, name: try await shared.anchor()).info().seq)]
        }
        // Wait (hang-guarded) until two snapshots in a row agree, then require ten more to.
        var before = try await snapshot()
        do {
            try await waitUntil("two snapshots in a row to agree") {
                let now = try await snapshot()
                defer { before = now }
                return now == before
            }
        } catch is TimedOut {
            return false  // the caller asserts the result
        }
        for _ in 0..<10 {
            guard try await snapshot() == before else { return false }
        }
        return true
    }
}
