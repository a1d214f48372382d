import RiveSyncRedis
import RiveSyncTestSupport
import Testing

@testable import RiveSyncCluster

/// The voided set (protocol/CLUSTER.md §3.6) does not grow without bound: the snapshot store's
/// trim removes the voided entries below its cut, which no reader reads again, and keeps the
/// others. The script runs on a real `redis-server`.
@Suite struct ClusterVoidTrimTests {
    @Test func aTrimDropsTheVoidedEntriesBelowItsCut() async throws {
        try await offThePool {
            let redis = try RedisServerProcess()
            defer { redis.stop() }
            let connection = try RedisConnection(RedisEndpoint(url: redis.url), timeout: .seconds(5))
            let keys = ClusterKeys(prefix: "rivesync")
            for entry in 1...10 { _ = try connection.command(["XADD", RedisArgument(keys.log), RedisArgument("\(entry)-0"), "k", "x"]) }
            _ = try connection.command(["SADD", RedisArgument(keys.voided), "2-0", "8-0"])
            // The previous store left the cut at 5-0; this one stores a snapshot at 9-0 and trims there.
            _ = try connection.command(["SET", RedisArgument(keys.trimPoint), "5-0"])
            let stored = try connection.command(
                [
                    "EVAL", RedisArgument(ClusterScripts.storeSnapshots), 8, RedisArgument(keys.snapshots),
                    RedisArgument(keys.snapshotIDs), RedisArgument(keys.files), RedisArgument(keys.log), RedisArgument(keys.trims),
                    RedisArgument(keys.trimPoint), RedisArgument(keys.pins), RedisArgument(keys.voided), "9-0", "demo", "{}", "{}",
                ])
            #expect(stored == .integer(1))
            #expect(try connection.command(["XLEN", RedisArgument(keys.log)]) == .integer(6), "entries 5-0 … 10-0 stay")
            let voided = try #require(try connection.command(["SMEMBERS", RedisArgument(keys.voided)]).array())
            #expect(try voided.map { try $0.string() } == ["8-0"], "the void below the cut left, the one above stayed")
        }
    }
}
