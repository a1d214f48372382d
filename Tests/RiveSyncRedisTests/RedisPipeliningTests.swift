import RiveSyncRedis
import RiveSyncTestSupport
import Testing

/// A window of fenced appends on one connection to a real redis-server (`appendfsync always`):
/// Redis runs them in the order sent, a fence in the middle refuses exactly the ones behind it,
/// and a connection killed mid-window leaves every append not answered unknown.
@Suite struct RedisPipeliningTests {
    /// The cluster's fencing append (protocol/CLUSTER.md §2.4), as a fixture.
    static let fencedAppend = """
        if redis.call('GET', KEYS[2]) ~= ARGV[1] then
          return redis.error_reply('FENCED the lease of this node has ended')
        end
        return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
        """

    static func append(_ index: Int, token: String) -> [RedisArgument] {
        ["EVAL", RedisArgument(fencedAppend), 2, "log", "lease", RedisArgument(token), "n", RedisArgument(index)]
    }

    /// The `n` of every entry of `log`, in stream order.
    static func logged(_ redis: RedisConnection) throws -> [Int] {
        try RedisStreamEntry.entries(try redis.command(["XRANGE", "log", "-", "+"])).map { entry in
            Int(String(decoding: try #require(entry.value("n")), as: UTF8.self)) ?? -1
        }
    }

    @Test func aFenceInTheMiddleOfAWindowRefusesEveryAppendBehindItAndNoneBefore() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            try redis.command(["SET", "lease", "A"]).expectStatus("OK")
            var window = RedisWindow<Int>(capacity: 64)
            // 30 appends, the lease taken over (as by another process), 30 more: one write.
            for index in 0..<30 { try window.send(Self.append(index, token: "A"), for: index, on: redis) }
            try window.send(["SET", "lease", "B"], for: -1, on: redis)
            for index in 30..<60 { try window.send(Self.append(index, token: "A"), for: index, on: redis) }
            #expect(window.count == 61)
            try redis.flush()
            var answered: [(item: Int, reply: RedisReply)] = []
            while !window.isEmpty { answered += try window.receive(on: redis) }
            #expect(answered.map(\.item) == Array(0..<30) + [-1] + Array(30..<60))
            for (item, reply) in answered where item >= 0 {
                if item < 30 {
                    #expect(try reply.string()?.contains("-") == true, "append \(item) before the fence got an id: \(reply)")
                } else {
                    #expect(reply == .error("FENCED the lease of this node has ended"), "append \(item) behind the fence")
                }
            }
            #expect(try Self.logged(redis) == Array(0..<30), "exactly the appends before the fence, in the order sent")
        }
    }

    @Test func aConnectionKilledMidWindowLeavesAPrefixInTheLogAndTheRestUnknown() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let endpoint = try RedisEndpoint(url: server.url)
            let redis = try RedisConnection(endpoint, timeout: .seconds(5))
            let admin = try RedisConnection(endpoint, timeout: .seconds(5))
            let id = try redis.command(["CLIENT", "ID"]).integer()
            try redis.command(["SET", "lease", "A"]).expectStatus("OK")
            var window = RedisWindow<Int>(capacity: 64)
            for index in 0..<16 { try window.send(Self.append(index, token: "A"), for: index, on: redis) }
            var answered: [Int] = []
            while !window.isEmpty { answered += try window.receive(on: redis).map(\.item) }
            // Sixteen more behind a command that blocks the connection (Redis has not come to
            // them yet), then the connection killed from another one: none of them is answered.
            try window.send(["BLPOP", "never", 0], for: -1, on: redis)
            for index in 16..<32 { try window.send(Self.append(index, token: "A"), for: index, on: redis) }
            try redis.flush()
            try waitUntilBlocked(admin)
            #expect(try admin.command(["CLIENT", "KILL", "ID", RedisArgument(id)]) == .integer(1), "one connection killed")
            #expect {
                while !window.isEmpty { answered += try window.receive(on: redis).map(\.item) }
            } throws: { error in
                guard case .connectionLost = error as? RedisError else { return false }
                return true
            }
            #expect(answered == Array(0..<16))
            #expect(window.abandon() == [-1] + Array(16..<32), "every command not answered is unknown, in order")
            #expect(try Self.logged(admin) == Array(0..<16), "the unknown appends never ran: the log holds what was answered")
        }
    }

    /// Waits until Redis reports a client blocked (the `BLPOP`).
    func waitUntilBlocked(_ admin: RedisConnection) throws {
        try waitUntilBlocking("the BLPOP to block") {
            try #require(try admin.command(["INFO", "clients"]).string()).contains("blocked_clients:1")
        }
    }
}
