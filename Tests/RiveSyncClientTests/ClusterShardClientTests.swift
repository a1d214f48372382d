import Foundation
import RiveSyncTestSupport
import XCTest

@testable import RiveSyncClient

/// `Worker.connect(url:serving:)` in a sharded cluster (protocol/CLUSTER.md §6.3): one
/// redis-server holding two shards, node 0 serving `s1` (file `demo`, target `lobby`) and
/// node 1 serving `s2` (file `demo2`, target `lobby2`), each announcing its URL.
final class ClusterShardClientTests: XCTestCase {
    private var redis: RedisServerProcess!
    private var nodes: [DaemonProcess] = []
    private var workers: [Worker] = []

    override func setUp() async throws {
        redis = try RedisServerProcess()
        let demo = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        // Node 1 first: node 0 reads its announcement when it starts.
        for (index, shard) in [(1, "s2"), (0, "s1")] {
            let port = try DaemonProcess.freePort()
            let configuration = """
                {"files": [{"name": "demo", "path": "\(demo)"}, {"name": "demo2", "path": "\(demo)"}],
                 "stateMachines": [{"name": "lobby", "file": "demo", "artboard": "Lobby", "stateMachine": "lobby"},
                                   {"name": "lobby2", "file": "demo2", "artboard": "Lobby", "stateMachine": "lobby"}],
                 "auth": {"allowAnonymous": "loopback"},
                 "cluster": {"redis": "\(redis.url)", "node": "node-\(index)", "url": "ws://127.0.0.1:\(port)/",
                             "shards": [{"name": "s1"}, {"name": "s2"}], "fileShards": {"demo": "s1", "demo2": "s2"},
                             "serves": ["\(shard)"]}}
                """
            nodes.insert(try DaemonProcess(["--config", try DaemonProcess.writeConfiguration(configuration)], port: port), at: 0)
        }
    }

    override func tearDown() async throws {
        for worker in workers { await worker.close() }
        for node in nodes { node.stop() }
        redis?.stop()
        if testRun?.hasSucceeded == false { for node in nodes { print(node.stderr) } }
    }

    /// Node 0 says where `lobby2` is; the worker ends on node 1, whose targets are s2's, and
    /// writes there.
    func testConnectServingATargetFollowsWrongNode() async throws {
        let worker = try await Worker.connect(url: nodes[0].url, serving: "lobby2")
        workers.append(worker)
        let url = await worker.session.settings.url
        XCTAssertEqual(url, nodes[1].url)
        let names = try await worker.getTargets().map(\.name)
        XCTAssertEqual(names, ["lobby2"])
        let lobby = try await worker.stateMachine(named: "lobby2").mainInstance()
        try await lobby.confirmed.setValue(of: StringProperty(path: "title"), to: "followed")
        let title = try await lobby.value(of: StringProperty(path: "title"))
        XCTAssertEqual(title, "followed")
    }

    /// A node that serves the file keeps the worker; a target no shard has is `unknownTarget`.
    func testAServingNodeKeepsTheWorkerAndAnUnknownTargetThrows() async throws {
        let worker = try await Worker.connect(url: nodes[0].url, servingFile: "demo")
        workers.append(worker)
        let url = await worker.session.settings.url
        XCTAssertEqual(url, nodes[0].url)
        do {
            workers.append(try await Worker.connect(url: nodes[0].url, serving: "missing"))
            XCTFail("connected for a target no node has")
        } catch StateMachineError.unknownTarget(let name) {
            XCTAssertEqual(name, "missing")
        }
    }
}
