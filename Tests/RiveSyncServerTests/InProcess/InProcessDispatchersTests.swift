import RiveSyncInProcess
import RiveSyncJSON
import Testing

@testable import RiveSyncServer

/// A connection core per transport service thread (`Dispatchers`): a session's id says its
/// thread and so its core; what one core's client makes through a worker is known to every
/// core by the time the reply reaches the client, and a deleted target ends the subscriptions
/// counted on every core. In-process sessions 1, 2, … are those of threads 0, 1, … in turn.
@Suite struct InProcessDispatchersTests {
    static let schema: JSONValue = [
        "rivesyncSchema": 1, "viewModels": [["name": "A", "properties": [["name": "n", "type": "number"]]]],
    ]

    static func daemon(threads: Int, workers: Int = 1, maxSubscriptions: Int? = nil) throws -> InProcessDaemon {
        var configuration = DaemonConfiguration.demo()
        configuration.transportThreads = threads
        configuration.workers = workers
        if let maxSubscriptions { configuration.limits.maxSubscriptions = maxSubscriptions }
        return try InProcessDaemon(configuration: configuration)
    }

    @Test(arguments: [1, 2, 3])
    func eachServiceThreadHasACoreOfItsOwn(threads: Int) throws {
        let daemon = try Self.daemon(threads: threads)
        let cores = daemon.daemon.dispatcher
        #expect(cores.all.count == threads)
        for session in UInt64(1)...7 {
            #expect(cores.of(session) === cores.all[Int((session - 1) % UInt64(threads))], "session \(session)")
        }
        #expect(Set(cores.all.map { ObjectIdentifier($0.queue) }).count == threads, "a queue per core")
    }

    /// Files loaded through each core go to the workers in turn from the core's own index;
    /// a target made through one core is routed by the other from the reply on, and its
    /// deletion too.
    @Test func whatOneCoreMakesTheOtherRoutesFromTheReplyOn() async throws {
        let daemon = try Self.daemon(threads: 2, workers: 2)
        let first = try await daemon.connected()
        let second = try await daemon.connected()
        #expect(daemon.daemon.dispatcher.of(first.session) !== daemon.daemon.dispatcher.of(second.session))
        let loadedA = try await first.request(["type": "loadFile", "name": "a", "schema": Self.schema])
        let loadedB = try await second.request(["type": "loadFile", "name": "b", "schema": Self.schema])
        let uploads = (loadedB["files"]?.arrayValue ?? []).filter { $0["source"] == "upload" }
        #expect(loadedA["type"] == "files" && uploads.map { $0["name"] } == ["a", "b"], "\(loadedB.jsonText)")
        #expect(uploads.map { $0["worker"] } == [0, 1], "each core from its own worker: \(loadedB.jsonText)")
        for (maker, other, file) in [(first, second, "b"), (second, first, "a")] {
            let target = JSONValue.string("made-in-\(file)")
            let made = try await maker.request([
                "type": "createInstance", "file": .string(file), "source": ["blank": ["viewModel": "A"]], "publish": target,
            ])
            try #require(made["type"] == "instance", "\(made.jsonText)")
            let set = try await other.request(["type": "set", "target": target, "path": "n", "value": 3])
            #expect(set["type"] == "ack", "routed by the other core right after the reply: \(set.jsonText)")
            let deleted = try await maker.request(["type": "deleteTarget", "target": target])
            #expect(deleted["type"] == "targetDeleted", "\(deleted.jsonText)")
            let gone = try await other.request(["type": "get", "target": target, "path": "n"])
            #expect(gone["code"] == "unknown_target", "\(gone.jsonText)")
        }
    }

    /// A subscriber at its `maxSubscriptions` whose target another client deletes may
    /// subscribe to another target: the deletion ended the subscription its core counted, on
    /// the deleter's core and on any other.
    @Test(arguments: [1, 2])
    func aDeletedTargetFreesItsSubscriptionsOnEveryCore(threads: Int) async throws {
        let daemon = try Self.daemon(threads: threads, maxSubscriptions: 1)
        let maker = try await daemon.connected()
        let watcher = try await daemon.connected()
        let loaded = try await maker.request(["type": "loadFile", "name": "f", "schema": Self.schema])
        try #require(loaded["type"] == "files", "\(loaded.jsonText)")
        for name in ["first", "second"] {
            let made = try await maker.request([
                "type": "createInstance", "file": "f", "source": ["blank": ["viewModel": "A"]], "publish": .string(name),
            ])
            try #require(made["type"] == "instance", "\(made.jsonText)")
        }
        let snapshot = try await watcher.request(["type": "subscribe", "target": "first"])
        try #require(snapshot["type"] == "snapshot", "\(snapshot.jsonText)")
        let refused = try await watcher.request(["type": "subscribe", "target": "second"])
        #expect(refused["code"] == "limit_exceeded", "at the limit: \(refused.jsonText)")
        let deleted = try await maker.request(["type": "deleteTarget", "target": "first"])
        try #require(deleted["type"] == "targetDeleted", "\(deleted.jsonText)")
        let ended = try await watcher.next(where: { $0["type"] == "unsubscribed" }, what: "the end of the deleted target's stream")
        #expect(ended["reason"] == "deleted", "\(ended.jsonText)")
        let other = try await watcher.request(["type": "subscribe", "target": "second"])
        #expect(other["type"] == "snapshot", "the deleted target's subscription no longer counts: \(other.jsonText)")
    }

    /// The daemon-wide counters are kept per worker and per core (`MetricStripe`) and summed
    /// in `/metrics`: requests read by either core, and the advances of either worker.
    @Test func theCountersOfEveryCoreAndWorkerAreSummed() async throws {
        let daemon = try Self.daemon(threads: 2, workers: 2)
        let first = try await daemon.connected()
        let second = try await daemon.connected()
        func value(_ name: String) throws -> Double {
            let line = daemon.metricsText().split(separator: "\n").first { $0.hasPrefix(name + " ") }
            return try #require(line.flatMap { Double($0.split(separator: " ")[1]) }, "\(name) in /metrics")
        }
        let requests = try value("rivesync_requests_total")
        let advances = try value("rivesync_advance_duration_seconds_count")
        for (client, file) in [(first, "a"), (second, "b")] {
            let loaded = try await client.request(["type": "loadFile", "name": .string(file), "schema": Self.schema])
            try #require(loaded["type"] == "files", "\(loaded.jsonText)")
            let made = try await client.request([
                "type": "createInstance", "file": .string(file), "source": ["blank": ["viewModel": "A"]], "publish": .string(file),
            ])
            try #require(made["type"] == "instance", "\(made.jsonText)")
            for value in 1...3 {
                let ack = try await client.request(["type": "set", "target": .string(file), "path": "n", "value": .number(Double(value))])
                try #require(ack["type"] == "ack", "\(ack.jsonText)")
            }
        }
        #expect(try value("rivesync_requests_total") - requests == 10, "5 requests through each core")
        #expect(try value("rivesync_advance_duration_seconds_count") - advances >= 6, "3 sets on each worker, each in an advance")
        #expect(try value("rivesync_commands_queued") == 0)
    }
}
