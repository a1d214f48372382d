import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol
import Testing

/// A cluster node of several shards (protocol/CLUSTER.md §6.3): the connection core answers a
/// name it does not hold from its own `ShardPlacement` — `wrong_node` with the shard and its
/// nodes as the shell last read them — and asks its environment nothing.
@Suite struct ConnectionShardTests {
    /// Shards `s1` (served here) and `s2`; `demo` on `s1` and `remote` on `s2` by name; the
    /// configured target `stage2` of `remote`. By the name hash, `elsewhere` falls on `s2` and
    /// `mine` on `s1`.
    static let placement = ShardPlacement(
        shards: ["s1", "s2"], served: ["s1"], fileShards: ["demo": "s1", "remote": "s2"], configuredTargets: ["stage2": "remote"])

    private func driver() -> ConnectionDriver {
        var driver = ConnectionDriver()
        driver.configure { $0.shards = Self.placement }
        driver.greeted()
        return driver
    }

    @Test func filesAreOnTheShardOfTheirNameOrTheirHash() {
        #expect(Self.placement.shard(ofFile: "demo") == "s1")
        #expect(Self.placement.shard(ofFile: "remote") == "s2")
        #expect(Self.placement.shard(ofFile: "elsewhere") == "s2")
        #expect(Self.placement.shard(ofFile: "mine") == "s1")
        #expect(ShardPlacement.nameHash("") == 0xcbf2_9ce4_8422_2325, "FNV-1a's offset basis")
    }

    @Test func anotherShardsFileIsAnsweredWrongNodeWithItsNodesAsLastRead() {
        var driver = driver()
        let before = driver.send(["type": "describe", "id": 1, "file": "remote"]).sent.first
        #expect(before?["code"] == "wrong_node")
        #expect(before?["details"] == ["shard": "s2", "nodes": []], "no node read yet")
        _ = driver.core.handle(.shardsRead(nodes: ["s1": ["ws://a"], "s2": ["ws://b", "ws://c"]], targets: [:]))
        let after = driver.send(["type": "describe", "id": 2, "file": "elsewhere"])
        #expect(after.sent.first?["details"] == ["shard": "s2", "nodes": ["ws://b", "ws://c"]])
        #expect(after.routed.isEmpty, "nothing goes to a worker")
        #expect(driver.send(["type": "describe", "id": 3, "file": "mine"]).sent.first?["code"] == "unknown_file", "a served shard")
    }

    @Test func anotherShardsTargetsAreAnsweredWrongNode() {
        var driver = driver()
        #expect(driver.send(["type": "subscribe", "id": 1, "target": "stage2"]).sent.first?["code"] == "wrong_node", "configured")
        #expect(
            driver.send(["type": "get", "id": 2, "target": "made", "path": "x"]).sent.first?["code"] == "unknown_target", "not read yet")
        _ = driver.core.handle(.shardsRead(nodes: [:], targets: ["made": "s2"]))
        let made = driver.send(["type": "set", "id": 3, "target": "made", "path": "x", "value": 1]).sent.first
        #expect(made?["code"] == "wrong_node" && made?["details"]?["shard"] == "s2")
        _ = driver.core.handle(.shardsRead(nodes: [:], targets: [:]))
        #expect(
            driver.send(["type": "get", "id": 4, "target": "made", "path": "x"]).sent.first?["code"] == "unknown_target", "gone from s2")
        #expect(driver.environment.calls.allSatisfy { $0 == "now" })
    }

    @Test func aSingleDaemonHasNoOtherShard() {
        var driver = ConnectionDriver()
        driver.greeted()
        _ = driver.core.handle(.shardsRead(nodes: ["s2": ["ws://b"]], targets: ["made": "s2"]))
        #expect(driver.send(["type": "describe", "id": 1, "file": "remote"]).sent.first?["code"] == "unknown_file")
        #expect(driver.send(["type": "get", "id": 2, "target": "made", "path": "x"]).sent.first?["code"] == "unknown_target")
    }
}
