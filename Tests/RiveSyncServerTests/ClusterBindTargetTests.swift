import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// `setBindTarget` (PROTOCOL.md §8) on a cluster of three nodes, on bidirectional_precedence.riv
/// (on its artboard `source_first`, binds 0 and 1 are two-way binds of a shape's x and y): the
/// nodes take turns writing a bind's target and advancing, and every node applies the same
/// writes, reaching the same seq, digest and values.
@Suite(.serialized) struct ClusterBindTargetTests {
    @Test func threeClusterNodesApplyTheSameBindTargets() async throws {
        let files = StateMachineDaemonTests.files([("twoway", "bidirectional_precedence.riv")])
        try await withThreeClusterNodes(files: files) { cluster, clients in
            let created = try await clients[0].request([
                "type": "createStateMachine", "file": "twoway", "name": "twoway", "artboard": "source_first", "mode": "manual",
            ])
            #expect(created["type"] == "target", "\(created.jsonText)")
            for index in 1..<3 {
                try await waitUntil("node \(index) to know 'twoway'") {
                    try await clients[index].request(["type": "digest", "target": "twoway"])["type"] == "digest"
                }
            }
            for (index, (bind, value)) in [(0, 700.0), (1, 800.0), (0, 120.5)].enumerated() {
                let client = clients[index % 3]
                client.send([
                    "type": "setBindTarget", "id": .number(Double(60 + index)), "target": "twoway", "bind": .number(Double(bind)),
                    "value": .number(value),
                ])
                let advanced = try await client.request(["type": "advance", "target": "twoway", "elapsed": 0.016])
                #expect(advanced["type"] == "advanced", "\(advanced.jsonText)")
                let ack = try await client.next(where: { $0["id"]?.intValue == 60 + index }, what: "the setBindTarget's ack")
                #expect(ack["type"] == "ack", "\(ack.jsonText)")
            }
            let seq = try #require(try await clients[0].request(["type": "digest", "target": "twoway"])["seq"]?.intValue)
            var digests: [String] = []
            for index in 0..<3 { digests.append(try await cluster.digest(of: "twoway", at: seq, on: index)) }
            #expect(Set(digests).count == 1, "\(digests)")
            for (index, client) in clients.enumerated() {
                let x = try await client.request(["type": "get", "target": "twoway", "path": "x"])
                let y = try await client.request(["type": "get", "target": "twoway", "path": "y"])
                #expect(x["value"] == 120.5 && y["value"] == 800, "node \(index): \(x.jsonText) \(y.jsonText)")
            }
        }
    }
}
