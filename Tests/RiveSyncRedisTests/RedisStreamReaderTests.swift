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
        /// The stream's last entry reported at each (re)start, until it is read; nil: caught up.
        let target = Mutex<RedisStreamID??>(nil)
        /// Entries delivered when the reader had read up to the last entry reported at its
        /// (re)start (or read nothing new), and failures reported before: each catch-up.
        let caughtUpAfter = Mutex<[(entries: Int, failures: Int)]>([])

        func handle(_ event: RedisStreamReader.Event) {
            switch event {
            case .started(let last): target.withLock { $0 = .some(last) }
            case .entries(let batch, let upTo):
                entries.withLock { $0 += batch }
                if let last = target.withLock({ $0 }), last.map({ upTo >= $0 }) ?? true { caughtUp() }
            case .readNothing: caughtUp()
            case .failed(let error): failures.withLock { $0.append(error) }
            }
        }

        private func caughtUp() {
            guard target.withLock({ $0 }) != nil else { return }
            target.withLock { $0 = nil }
            let counts = (entries.withLock { $0.count }, failures.withLock { $0.count })
            caughtUpAfter.withLock { $0.append(counts) }
        }

        func wait(for count: Int, seconds: Double = 20) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while entries.withLock({ $0.count }) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let got = entries.withLock { $0.count }
            try #require(got >= count, "got \(got) of \(count) entries")
        }
    }

    /// The check runs after every read with the position before it and what it returned,
    /// before anything is delivered; false stops the reader with that read undelivered.
    @Test func aCheckSeesEachReadFirstAndCanStopTheReader() async throws {
        try await offThePool {
            let server = try RedisServerProcess(appendfsync: "no")
            let endpoint = try RedisEndpoint(url: server.url)
            let writer = try RedisConnection(endpoint, timeout: .seconds(5))
            for index in 0..<10 { try writer.command(["XADD", "log", "*", "n", RedisArgument(index)]) }
            let received = Received()
            let checked = Mutex<[(after: RedisStreamID, first: RedisStreamID?)]>([])
            var settings = RedisStreamReader.Settings()
            settings.block = .milliseconds(100)
            settings.count = 4
            settings.check = { _, after, read in
                checked.withLock { $0.append((after, read.first?.id)) }
                // Stop at the read that would start with the entry numbered 8.
                return read.first?.value("n") != Array("8".utf8)
            }
            let reader = try RedisStreamReader(endpoint, key: "log", after: .start, settings: settings) { received.handle($0) }
            defer { reader.stop() }
            try received.wait(for: 8)
            // The third read checked, then the reader's thread joined: whatever it delivers
            // after a check it delivers before it ends (no event comes after `stop`).
            try waitUntilBlocking("the third read checked") { checked.withLock { $0.count } >= 3 }
            reader.stop()
            let numbers = received.entries.withLock { $0.map { String(decoding: $0.value("n") ?? [], as: UTF8.self) } }
            #expect(numbers == (0..<8).map(String.init), "the stopping read is not delivered")
            let ids = received.entries.withLock { $0.map(\.id) }
            let seen = checked.withLock { $0 }
            #expect(seen.count == 3, "three reads of four, the third stopped: \(seen)")
            #expect(seen.map(\.after) == [.start, ids[3], ids[7]])
            #expect(seen.prefix(2).map(\.first) == [ids[0], ids[4]])
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

    /// Under steady writes no read comes back empty (the `BLOCK` is 30 s): the reader reports
    /// the stream's last entry when it starts, and again after a Redis restart, so its user
    /// knows it caught up once it delivered past it.
    @Test func aBusyStreamIsCaughtUpAtItsLastEntryAsOfEachStart() async throws {
        try await offThePool {
            let server = try RedisServerProcess(appendfsync: "no")
            let endpoint = try RedisEndpoint(url: server.url)
            let writer = try RedisConnection(endpoint, timeout: .seconds(5))
            for index in 0..<300 { try writer.command(["XADD", "log", "*", "n", RedisArgument(index)]) }
            let writing = Atomic(true)
            let written = Atomic(300)
            let writes = Thread {
                var connection: RedisConnection?
                while writing.load(ordering: .relaxed) {
                    do {
                        if connection == nil { connection = try RedisConnection(endpoint, timeout: .seconds(1)) }
                        try connection?.command(["XADD", "log", "*", "n", RedisArgument(written.load(ordering: .relaxed))])
                        written.add(1, ordering: .relaxed)
                    } catch {
                        connection = nil
                    }
                    Thread.sleep(forTimeInterval: 0.002)
                }
            }
            writes.start()
            defer { writing.store(false, ordering: .relaxed) }
            let received = Received()
            var settings = RedisStreamReader.Settings()
            settings.block = .seconds(30)
            settings.count = 8
            let reader = try RedisStreamReader(endpoint, key: "log", after: .start, settings: settings) { received.handle($0) }
            defer { reader.stop() }
            let first = try Self.waitForCaughtUp(received, count: 1)
            #expect(first.entries >= 300, "caught up only after the 300 entries there at the start: \(first)")
            let writtenBeforeTheCrash = written.load(ordering: .relaxed)
            server.crash()
            try server.restart()
            let second = try Self.waitForCaughtUp(received, count: 2)
            #expect(second.failures > 0, "the second catch-up follows the restart: \(second)")
            let delivered = received.entries.withLock { $0.count }
            #expect(delivered > 300, "entries delivered: \(delivered)")
            // The writes went on through the restart: the catch-up was reached under load. (Counting
            // delivered against written entries is not exact: an XADD whose reply was lost in the
            // crash may be applied yet not counted.)
            let deadline = Date().addingTimeInterval(20)
            while written.load(ordering: .relaxed) <= writtenBeforeTheCrash, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(written.load(ordering: .relaxed) > writtenBeforeTheCrash, "no write succeeded after the restart")
        }
    }

    /// Waits until the reader reported catching up `count` times; returns the last report.
    static func waitForCaughtUp(_ received: Received, count: Int) throws -> (entries: Int, failures: Int) {
        let deadline = Date().addingTimeInterval(20)
        while received.caughtUpAfter.withLock({ $0.count }) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let reports = received.caughtUpAfter.withLock { $0 }
        try #require(reports.count >= count, "caught up \(reports.count) times, not \(count), in 20 s under steady writes")
        return reports[count - 1]
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
