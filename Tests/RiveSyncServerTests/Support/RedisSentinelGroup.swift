import Foundation
import RiveSyncRedis
import RiveSyncTestSupport

/// Redis with high availability, for a test: a primary, its replicas and three Debian
/// `redis-sentinel` processes (quorum 2) watching it as `primaryName`, all on loopback ports,
/// with Sentinel's failure detection shortened (`down-after-milliseconds` 1000). A missing
/// `redis-sentinel` fails the test (`.ci/setup-tests.sh` installs it); it never skips.
final class RedisSentinelGroup: @unchecked Sendable {
    static let primaryName = "rivesync"
    /// The servers, the first primary first (a failover changes which one is the primary).
    let servers: [RedisServerProcess]
    let sentinelPorts: [Int]
    private let sentinels: [ChildProcess]
    private let directory: URL

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the primary (with `primaryArguments`) and `replicas` replicas (each
    /// synchronised), then — unless `sentinels` is false — the Sentinels, and waits until every
    /// Sentinel knows the replicas and the two other Sentinels.
    init(replicas: Int = 1, primaryArguments: [String] = [], sentinels startSentinels: Bool = true) throws {
        let binary = "/usr/bin/redis-sentinel"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw Failure(description: "redis-sentinel is not installed (sh .ci/setup-tests.sh installs it)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-sentinels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let primary = try RedisServerProcess(arguments: primaryArguments)
        var servers = [primary]
        for _ in 0..<replicas {
            servers.append(try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(primary.port)]))
        }
        self.servers = servers
        try waitUntilBlocking("\(replicas) replicas online", seconds: 30) {
            try Self.info(port: primary.port).components(separatedBy: "state=online").count - 1 == replicas
        }
        var ports: [Int] = []
        var sentinels: [ChildProcess] = []
        for index in 0..<(startSentinels ? 3 : 0) {
            let port = try DaemonProcess.freePort()
            let configuration = directory.appendingPathComponent("sentinel-\(index).conf")
            try """
            port \(port)
            bind 127.0.0.1
            daemonize no
            logfile ""
            dir \(directory.path)
            sentinel monitor \(Self.primaryName) 127.0.0.1 \(primary.port) 2
            sentinel down-after-milliseconds \(Self.primaryName) 1000
            sentinel failover-timeout \(Self.primaryName) 10000
            sentinel parallel-syncs \(Self.primaryName) 1

            """.write(to: configuration, atomically: true, encoding: .utf8)
            sentinels.append(try ChildProcess(binary, [configuration.path], output: .merged))
            ports.append(port)
        }
        self.sentinels = sentinels
        sentinelPorts = ports
        for port in ports {
            try waitUntilBlocking("Sentinel \(port) to know its peers and replicas", seconds: 60) {
                // Not listening yet: asked again (the wait's deadline fails the test).
                guard let connection = try? RedisConnection(RedisEndpoint(host: "127.0.0.1", port: port), timeout: .seconds(2)) else {
                    return false
                }
                defer { connection.close() }
                let peers = try connection.command(["SENTINEL", "sentinels", RedisArgument(Self.primaryName)]).array()?.count
                let known = try connection.command(["SENTINEL", "replicas", RedisArgument(Self.primaryName)]).array()?.count
                if peers == 2, known == replicas { return true }
                Thread.sleep(forTimeInterval: 0.1)
                return false
            }
        }
    }

    /// `redis-sentinel://` naming every Sentinel and the primary.
    var url: String {
        "redis-sentinel://" + sentinelPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",") + "/" + Self.primaryName
    }

    /// The primary's port as the first Sentinel that answers says.
    func primaryPort() throws -> Int {
        for port in sentinelPorts {
            // A Sentinel that does not answer: the next one is asked (as a node would).
            guard let connection = try? RedisConnection(RedisEndpoint(host: "127.0.0.1", port: port), timeout: .seconds(2)) else {
                continue
            }
            defer { connection.close() }
            let address = try connection.command(["SENTINEL", "get-master-addr-by-name", RedisArgument(Self.primaryName)]).array()
            if let address, address.count == 2, let text = try address[1].string(), let primary = Int(text) { return primary }
        }
        throw Failure(description: "no Sentinel named a primary")
    }

    /// The server on `port`.
    func server(on port: Int) throws -> RedisServerProcess {
        guard let server = servers.first(where: { $0.port == port }) else { throw Failure(description: "no server on \(port)") }
        return server
    }

    /// `INFO replication` of the server on `port`.
    static func info(port: Int) throws -> String {
        let connection = try RedisConnection(RedisEndpoint(host: "127.0.0.1", port: port), timeout: .seconds(2))
        defer { connection.close() }
        return try connection.command(["INFO", "replication"]).string() ?? ""
    }

    /// What the Sentinels logged.
    var sentinelLogs: String {
        sentinels.enumerated().map { "--- sentinel \($0.offset) ---\n\($0.element.stdout)" }.joined(separator: "\n")
    }

    func stop() {
        // Sentinels keep nothing a test needs: SIGKILL (the test runner's children start with
        // SIGTERM blocked, see RedisServerProcess.stop).
        for sentinel in sentinels where sentinel.isRunning { sentinel.signal(SIGKILL) }
        for sentinel in sentinels {
            do { try waitUntilBlocking("redis-sentinel to exit", seconds: 30) { !sentinel.isRunning } } catch {
                FileHandle.standardError.write(Data("redis-sentinel \(sentinel.pid) did not exit: \(error)\n".utf8))
            }
        }
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: directory)  // cleanup; a leftover temp directory harms nothing
    }
}

extension RedisSentinelGroup: StoppedAfterUse {
    func stopAndWait() { stop() }
}
