import RiveSyncRedis
import Testing

@Suite struct RedisEndpointTests {
    @Test func urlsParse() throws {
        #expect(try RedisEndpoint(url: "redis://localhost") == RedisEndpoint(host: "localhost"))
        #expect(try RedisEndpoint(url: "redis://10.0.0.2:6380/2") == RedisEndpoint(host: "10.0.0.2", port: 6380, database: 2))
        #expect(try RedisEndpoint(url: "redis://[::1]:7000/") == RedisEndpoint(host: "::1", port: 7000))
        #expect(try RedisEndpoint(url: "redis://app:p%40ss@db:1") == RedisEndpoint(host: "db", port: 1, username: "app", password: "p@ss"))
        #expect(try RedisEndpoint(url: "redis://:pw@db") == RedisEndpoint(host: "db", password: "pw"))
        #expect(try RedisEndpoint(url: "redis://app:p%40ss@db:1").description == "redis://app:***@db:1/0")
    }

    @Test func sentinelURLsParse() throws {
        let one = RedisEndpoint.Address(host: "s1", port: 26379)
        let two = RedisEndpoint.Address(host: "::1", port: 5000)
        #expect(try RedisEndpoint(url: "redis-sentinel://s1/main") == RedisEndpoint(sentinels: [one], primaryName: "main"))
        let full = try RedisEndpoint(url: "redis-sentinel://:pw@s1,[::1]:5000/main/3")
        #expect(full == RedisEndpoint(sentinels: [one, two], primaryName: "main", database: 3, password: "pw"))
        #expect(full.usesSentinels)
        #expect(full.description == "redis-sentinel://:***@s1:26379,[::1]:5000/main/3")
        #expect(try !RedisEndpoint(url: "redis://s1").usesSentinels)
    }

    @Test func badURLsAreRefusedWithTheReason() {
        let cases = [
            ("http://x", "'http://x' does not start with redis:// or redis-sentinel://"), ("redis://", "no host in 'redis://'"),
            ("redis-sentinel://s1", "no primary name after the Sentinels in 'redis-sentinel://s1'"),
            ("redis-sentinel://s1//2", "no primary name after the Sentinels in 'redis-sentinel://s1//2'"),
            ("redis-sentinel://s1,/main", "no host in 'redis-sentinel://s1,/main'"),
            ("redis-sentinel://s1/main/x", "database 'x' is not a number"),
            ("redis://h:0", "port '0' is not 1-65535"), ("redis://h:x", "port 'x' is not 1-65535"),
            ("redis://h/db", "database 'db' is not a number"), ("redis://[::1", "unclosed '[' in 'redis://[::1'"),
            ("redis://:%zz@h", "bad percent-escape in the credentials"),
        ]
        for (url, reason) in cases {
            #expect(throws: RedisError.invalidURL(reason)) { try RedisEndpoint(url: url) }
        }
    }
}
