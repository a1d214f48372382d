import Foundation
import RiveSyncRedis
import RiveSyncTestSupport
import Synchronization
import Testing

/// The stream reader on its thread: order, exactly once across a Redis restart, stop.
@Suite struct RedisStreamReaderTests {
    /// What a reader delivered, for the test to wait on.
    final class Received: Sendable {
        let entries = Mutex<[RedisStreamEntry]>([])
        let failures = Mutex<[RedisError]>([])
        let caughtUp = Mutex(0)

        func handle(_ event: RedisStreamReader.Event) {
            switch event {
            case .entries(let batch): entries.withLock { $0 += batch }
            case .failed(let error): failures.withLock { $0.append(error) }
            case .caughtUp: caughtUp.withLock { $0 += 1 }
            }
        }

        func wait(for count: Int, seconds: Double = 20) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while entries.withLock({ $0.count }) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let got = entries.withLock { $0.count }
            try #require(got >= count, "got \(got) of \(count) entries")
        }
    }

    @Test func readsInOrderExactlyOnceAcrossARedisRestart() async throws {
        try await offThePool {
            // Not about durability: no fsync per entry (the machine may be loaded).
            let server = try RedisServerProcess(appendfsync: "no")
            let endpoint = try RedisEndpoint(url: server.url)
            let writer = try RedisConnection(endpoint, timeout: .seconds(5))
            for index in 0..<300 {
                try writer.command(["XADD", "log", "*", "n", RedisArgument(index), "blob", RedisArgument(bytes: [0, 10, 13])])
            }
            let received = Received()
            var settings = RedisStreamReader.Settings()
            settings.block = .milliseconds(200)
            settings.count = 64
            let reader = try RedisStreamReader(endpoint, key: "log", after: .start, settings: settings) { received.handle($0) }
            defer { reader.stop() }
            try received.wait(for: 300)
            server.crash()
            try server.restart()
            let again = try RedisConnection(endpoint, timeout: .seconds(5))
            for index in 300..<400 {
                try again.command(["XADD", "log", "*", "n", RedisArgument(index), "blob", RedisArgument(bytes: [0, 10, 13])])
            }
            try received.wait(for: 400)
            let numbers = received.entries.withLock { $0.map { String(decoding: $0.value("n") ?? [], as: UTF8.self) } }
            #expect(numbers == (0..<400).map(String.init))
            #expect(received.entries.withLock { $0.allSatisfy { $0.value("blob") == [0, 10, 13] } })
            let ids = received.entries.withLock { $0.map(\.id) }
            #expect(ids == ids.sorted() && Set(ids).count == ids.count)
            #expect(!received.failures.withLock { $0.isEmpty }, "the restart was reported")
        }
    }

    @Test func stopInterruptsABlockedReadPromptly() async throws {
        try await offThePool {
            let server = try RedisServerProcess()
            let received = Received()
            var settings = RedisStreamReader.Settings()
            settings.block = .seconds(30)
            let reader = try RedisStreamReader(RedisEndpoint(url: server.url), key: "quiet", after: .start, settings: settings) {
                received.handle($0)
            }
            // Let the read block (no event comes while it waits), then stop.
            Thread.sleep(forTimeInterval: 0.3)
            let started = ContinuousClock.now
            reader.stop()
            #expect(ContinuousClock.now - started < .seconds(10), "stop did not wait out the 30 s BLOCK")
            #expect(received.failures.withLock { $0.isEmpty })
        }
    }
}
