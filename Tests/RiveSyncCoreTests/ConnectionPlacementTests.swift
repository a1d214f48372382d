import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// The connection core routes by its own copy of the placement, kept by the directory's
/// changes (`placed`): it never asks where a file or target lives, and a change counts from
/// the event on (issue 26: naming decided without reading the directory).
@Suite struct ConnectionPlacementTests {
    /// The workers the routed requests went to.
    static func workers(_ out: [ConnectionAction]) -> [Int] {
        out.compactMap { action in
            guard case .route(_, _, let worker, _) = action else { return nil }
            return worker
        }
    }

    @Test func aTargetIsRoutedToItsFilesWorkerFromItsClaimOn() {
        var driver = ConnectionDriver()
        driver.greeted()
        let get: JSONValue = ["type": "get", "target": "hall", "path": "x"]
        #expect(driver.send(get).sent.first?["code"] == "unknown_target", "not claimed yet")
        _ = driver.core.handle(.placed(.filePlaced(name: "scene", Placement.FileLocation(worker: 1, number: 2))))
        _ = driver.core.handle(.placed(.targetNames(.claim("hall", file: "scene"))))
        let routed = driver.send(get)
        #expect(Self.workers(routed) == [1] && routed.sent.isEmpty, "the worker of the target's file")
        _ = driver.core.handle(.placed(.targetNames(.retire("hall", file: "scene"))))
        #expect(driver.send(get).sent.first?["code"] == "unknown_target", "deleted")
    }

    @Test func fileRequestsAndPublishGoToTheFilesWorker() {
        var driver = ConnectionDriver()
        driver.greeted()
        let describe: JSONValue = ["type": "describe", "file": "scene"]
        #expect(driver.send(describe).sent.first?["code"] == "unknown_file")
        _ = driver.core.handle(.placed(.filePlaced(name: "scene", Placement.FileLocation(worker: 1, number: 2))))
        #expect(Self.workers(driver.send(describe)) == [1])
        // Instance ids of file number 2 start at 2 << 40.
        let instance = JSONValue.number(Double(2 << Placement.fileIDShift | 1))
        #expect(Self.workers(driver.send(["type": "publish", "instance": instance, "name": "hall"])) == [1])
        _ = driver.core.handle(.placed(.fileReleased(name: "scene")))
        #expect(driver.send(describe).sent.first?["code"] == "unknown_file", "a released file is gone")
        let publish = driver.send(["type": "publish", "instance": instance, "name": "hall"])
        #expect(publish.sent.first?["code"] == "unknown_instance" && publish.routed.isEmpty)
    }

    @Test func theFilesReplyAndALoadedFilesReplyComeFromThePlacement() throws {
        var driver = ConnectionDriver()
        driver.greeted()
        let listed = driver.send(["type": "listFiles", "id": 1]).sent.first
        #expect(listed?["files"] == [["name": "demo", "worker": 0, "source": "config"]])
        let started = driver.send(["type": "loadFile", "id": 2, "name": "scene", "schema": ["viewModels": []]])
        #expect(started.background.count == 1)
        // The shell placed the file (its change comes first), then reports it loaded.
        _ = driver.core.handle(.placed(.filePlaced(name: "scene", Placement.FileLocation(worker: 1, number: 2))))
        let loaded = driver.core.handle(.fileLoaded(ConnectionID(1), id: 2))
        let reply = try #require(loaded.sent.first)
        #expect(reply["id"] == 2)
        #expect(
            reply["files"] == [["name": "demo", "worker": 0, "source": "config"], ["name": "scene", "worker": 1, "source": "upload"]])
        #expect(loaded.handledCount == 1)
    }

    @Test func clientsFilesArePlacedOnEachWorkerInTurn() {
        var driver = ConnectionDriver()
        driver.greeted()
        driver.greeted(2)
        var placed: [Int] = []
        for (index, connection) in [1, 2, 1].enumerated() {
            let load: JSONValue = ["type": "loadFile", "name": .string("f\(index)"), "schema": ["viewModels": []]]
            for case .loadFile(_, _, let worker) in driver.send(load, from: UInt64(connection)).background { placed.append(worker) }
            _ = driver.core.handle(.backgroundFinished(ConnectionID(UInt64(connection)), reply: Frame(bytes: [])))
        }
        #expect(placed == [0, 1, 0])
    }

    /// The recording double: through opening, hello with and without a token, creation,
    /// routing, listing, loading, deletion, a refused origin and a reload of the tokens and
    /// limits, the core asks its environment for the clock and nothing else: the configuration
    /// and tokens are its own state (`configured`), and so is where other shards' names are
    /// (`ShardPlacement`, `shardsRead`).
    @Test func theCoreAsksItsEnvironmentOnlyForTheClock() {
        var driver = ConnectionDriver()
        driver.greeted()
        driver.greeted(2, token: "good")
        driver.greeted(3, token: "unknown")
        _ = driver.open(4, origin: "https://evil.example")
        _ = driver.send(["type": "createStateMachine", "file": "demo", "name": "stage", "artboard": "Stage"])
        _ = driver.core.handle(.placed(.targetNames(.claim("stage", file: "demo"))))
        _ = driver.send(["type": "subscribe", "target": "stage"])
        _ = driver.send(["type": "set", "target": "stage", "path": "count", "value": 1], from: 2)
        _ = driver.send(["type": "listFiles"])
        _ = driver.send(["type": "loadFile", "id": 2, "name": "scene", "schema": ["viewModels": []]])
        _ = driver.core.handle(.placed(.filePlaced(name: "scene", Placement.FileLocation(worker: 1, number: 2))))
        _ = driver.core.handle(.fileLoaded(ConnectionID(1), id: 2))
        _ = driver.send(["type": "deleteTarget", "target": "stage"])
        _ = driver.core.handle(.placed(.targetNames(.retire("stage", file: "demo"))))
        let reload = driver.configure { settings in
            settings.access.tokens = []
            settings.limits.maxSubscriptions = 1
        }
        #expect(reload.closes == [.policyViolation], "the revoked token's connection")
        _ = driver.core.handle(.timerFired(.hello(ConnectionID(4))))
        #expect(driver.environment.calls.count > 3, "the double records the calls")
        _ = driver.configure { $0.shards = ConnectionShardTests.placement }
        _ = driver.core.handle(.shardsRead(nodes: ["s2": ["ws://b"]], targets: ["far": "s2"]))
        _ = driver.send(["type": "get", "target": "nowhere", "path": "x"])
        _ = driver.send(["type": "get", "target": "far", "path": "x"])
        _ = driver.send(["type": "describe", "file": "elsewhere"])
        #expect(Set(driver.environment.calls) == ["now"], "\(driver.environment.calls)")
    }
}
