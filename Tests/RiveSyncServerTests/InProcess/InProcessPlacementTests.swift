import RiveSyncInProcess
import RiveSyncJSON
import Testing

@testable import RiveSyncServer

/// The dispatcher routes by its own copy of the placement, kept by the directory's changes
/// (issue 26): a client's files go to each worker in turn, and a target a worker made or
/// deleted is known to the dispatcher by the time its reply reaches the client, so the
/// client's next request finds it (or does not).
@Suite struct InProcessPlacementTests {
    static let schema: JSONValue = [
        "rivesyncSchema": 1, "viewModels": [["name": "A", "properties": [["name": "n", "type": "number"]]]],
    ]

    @Test func filesGoToEachWorkerInTurnAndTheirTargetsAreRoutedFromTheirReplyOn() async throws {
        var configuration = DaemonConfiguration.demo()
        configuration.workers = 3
        let daemon = try InProcessDaemon(configuration: configuration)
        let client = try await daemon.connected()
        var loaded: JSONValue = .null
        for name in ["a", "b", "c"] {
            loaded = try await client.request(["type": "loadFile", "name": .string(name), "schema": Self.schema])
            #expect(loaded["type"] == "files", "\(loaded.jsonText)")
        }
        let workers = (loaded["files"]?.arrayValue ?? []).filter { $0["source"] == "upload" }.map { $0["worker"] }
        #expect(workers == [0, 1, 2], "\(loaded.jsonText)")
        for file in ["a", "b", "c"] {
            for index in 0..<3 {
                let target = JSONValue.string("\(file)-\(index)")
                let made = try await client.request([
                    "type": "createInstance", "file": .string(file), "source": ["blank": ["viewModel": "A"]], "publish": target,
                ])
                #expect(made["type"] == "instance", "\(made.jsonText)")
                let set = try await client.request(["type": "set", "target": target, "path": "n", "value": .number(Double(index))])
                #expect(set["type"] == "ack", "routed right after the reply: \(set.jsonText)")
                let deleted = try await client.request(["type": "deleteTarget", "target": target])
                #expect(deleted["type"] == "targetDeleted", "\(deleted.jsonText)")
                let gone = try await client.request(["type": "get", "target": target, "path": "n"])
                #expect(gone["code"] == "unknown_target", "\(gone.jsonText)")
            }
        }
    }
}
