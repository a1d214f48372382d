import RiveSyncRedis
import RiveSyncTestSupport
import Synchronization
import Testing

/// The hiredis wrapper against a real redis-server: argv commands, typed replies, typed errors.
@Suite struct RedisConnectionTests {
    @Test func commandsAreBinarySafeAndRepliesTyped() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            try redis.command(["PING"]).expectStatus("PONG")
            // Spaces, CR LF, NUL and bytes that are not UTF-8 survive both ways.
            let value: [UInt8] = [0, 13, 10, 32, 0xFF, 0xFE, 36, 42, 0]
            try redis.command(["SET", RedisArgument(bytes: [0x6B, 0, 0x20, 0x0A]), RedisArgument(bytes: value)]).expectStatus("OK")
            #expect(try redis.command(["GET", RedisArgument(bytes: [0x6B, 0, 0x20, 0x0A])]).bytes() == value)
            #expect(try redis.command(["GET", "missing"]) == .null)
            #expect(try redis.command(["INCRBY", "counter", 41]).integer() == 41)
            #expect(try redis.command(["SET", "empty", ""]) == .status("OK"))
            #expect(try redis.command(["GET", "empty"]) == .bulk([]))
            #expect(try redis.command(["RPUSH", "list", "a", "b"]) == .integer(2))
            #expect(try redis.command(["LRANGE", "list", 0, -1]) == .array([.bulk(Array("a".utf8)), .bulk(Array("b".utf8))]))
        }
    }

    @Test func errorRepliesAreTypedAndLeaveTheConnectionUsable() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            try redis.command(["SET", "text", "abc"])
            #expect(throws: RedisError.server("ERR value is not an integer or out of range")) { try redis.command(["INCR", "text"]) }
            #expect(throws: RedisError.unexpectedReply("expected an integer, got status(\"OK\")")) {
                try redis.command(["SET", "x", "1"]).integer()
            }
            #expect(!redis.isBroken)
            try redis.command(["PING"]).expectStatus("PONG")
        }
    }

    @Test func pipelineKeepsOrderAndErrorsInPlace() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            let replies = try redis.pipeline([["SET", "a", "1"], ["INCR", "a"], ["LPUSH", "a", "x"], ["GET", "a"]])
            #expect(replies.count == 4)
            #expect(replies[0] == .status("OK"))
            #expect(replies[1] == .integer(2))
            guard case .error(let message) = replies[2] else {
                Issue.record("LPUSH on a string: \(replies[2])")
                return
            }
            #expect(message.hasPrefix("WRONGTYPE"))
            #expect(replies[3] == .bulk(Array("2".utf8)))
        }
    }

    @Test func connectingToNothingFailsTyped() async throws {
        try await offThePool {
            let port = try DaemonProcess.freePort()
            #expect {
                _ = try RedisConnection(RedisEndpoint(host: "127.0.0.1", port: port), timeout: .seconds(2))
            } throws: { error in
                guard case .connectFailed(let reason) = error as? RedisError else { return false }
                return reason.contains("refused")
            }
        }
    }

    @Test func aSilentServerTimesOutAndAKilledOneIsLost() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .milliseconds(300))
            server.freeze()
            #expect(throws: RedisError.timedOut) { try redis.command(["PING"]) }
            #expect(redis.isBroken)
            // Every later command on a broken connection fails at once, without sending.
            #expect(throws: RedisError.connectionLost("Redis did not answer in time")) { try redis.command(["PING"]) }
            server.thaw()
            let again = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            try again.command(["PING"]).expectStatus("PONG")
            server.crash()
            #expect {
                try again.command(["PING"])
            } throws: { error in
                guard case .connectionLost = error as? RedisError else { return false }
                return true
            }
        }
    }

    @Test func appendOnlyFileKeepsWritesAcrossAKill() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let redis = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            for index in 0..<50 { try redis.command(["XADD", "log", "*", "n", RedisArgument(index)]) }
            server.crash()
            try server.restart()
            let after = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            #expect(try after.command(["XLEN", "log"]).integer() == 50)
        }
    }

    @Test func databaseAndPasswordFromTheURL() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let admin = try RedisConnection(RedisEndpoint(url: server.url), timeout: .seconds(5))
            try admin.command(["CONFIG", "SET", "requirepass", "s3cret pass"]).expectStatus("OK")
            // Open again at the end, so that the server can be shut down without a password.
            defer { _ = try? admin.command(["CONFIG", "SET", "requirepass", ""]) }
            let endpoint = try RedisEndpoint(url: "redis://:s3cret%20pass@127.0.0.1:\(server.port)/3")
            let redis = try RedisConnection(endpoint, timeout: .seconds(5))
            try redis.command(["SET", "where", "three"])
            try admin.command(["SELECT", 3]).expectStatus("OK")
            #expect(try admin.command(["GET", "where"]).string() == "three")
            #expect {
                _ = try RedisConnection(RedisEndpoint(url: "redis://:wrong@127.0.0.1:\(server.port)"), timeout: .seconds(5))
            } throws: { error in
                guard case .connectFailed(let reason) = error as? RedisError else { return false }
                return reason.contains("WRONGPASS") || reason.contains("invalid")
            }
        }
    }
}
