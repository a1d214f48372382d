import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Files on different workers, and files loaded by a client at run time (the whole daemon
/// in-process).
@Suite(.serialized) struct WorkersAndFilesTests {
    @Test func anInstanceOfAnotherWorkersFileIsAWrongWorkerError() async throws {
        let directory = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json"
        let config: JSONValue = [
            "workers": 2,
            "files": [["name": "one", "path": .string(schema), "worker": 0], ["name": "two", "path": .string(schema), "worker": 1]],
            "stateMachines": [["name": "lobby", "file": "one", "artboard": "Lobby"]],
            "auth": ["allowAnonymous": "loopback"],
        ]
        let path = directory + "/config.json"
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        try await withInProcessDaemon(["--config", path]) { daemon in
            let client = try await daemon.connected()
            let files = try await client.request(["type": "listFiles"])
            #expect(
                files["files"] == [["name": "one", "worker": 0, "source": "config"], ["name": "two", "worker": 1, "source": "config"]])
            let foreign = try await client.request(["type": "createInstance", "file": "two", "source": ["blank": ["viewModel": "Player"]]])
            let append = try await client.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": foreign["instance"] ?? .null,
            ])
            #expect(append["code"] == "wrong_worker", "\(append.jsonText)")
            let local = try await client.request(["type": "createInstance", "file": "one", "source": ["blank": ["viewModel": "Player"]]])
            let ok = try await client.request([
                "type": "listAppend", "target": "lobby", "path": "players", "instance": local["instance"] ?? .null,
            ])
            #expect(ok["type"] == "ack")
        }
    }

    @Test func aClientLoadsARivFileAndUsesItsViewModels() async throws {
        let fixture = DaemonProcess.packageRoot + "/../shared/fixtures/riv/scripted_string.riv"
        let bytes = try #require(FileManager.default.contents(atPath: fixture), "missing fixture \(fixture)")
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            let loaded = try await client.request(["type": "loadFile", "name": "strings", "riv": .string(bytes.base64EncodedString())])
            #expect(loaded["type"] == "files" && loaded["files"]?.arrayValue?.count == 2, "\(loaded.jsonText)")
            let names = try await client.request(["type": "viewModelNames", "file": "strings"])
            #expect(names["names"] == ["stringVm"])
            let machine = try await client.request([
                "type": "createStateMachine", "file": "strings", "name": "strings-sm", "artboard": "StringArtboard",
            ])
            #expect(machine["type"] == "target", "\(machine.jsonText)")
            let value = try await client.request(["type": "get", "target": "strings-sm", "path": "stringProp"])
            #expect(value["value"] == "yo", "the stored default of the .riv")
            let set = try await client.request(["type": "set", "target": "strings-sm", "path": "stringProp", "value": "hi"])
            #expect(set["type"] == "ack")
            let garbage = try await client.request([
                "type": "loadFile", "name": "bad", "riv": .string(Data("RIVE garbage".utf8).base64EncodedString()),
            ])
            #expect(garbage["code"] == "invalid_file", "\(garbage.jsonText)")
            let taken = try await client.request(["type": "loadFile", "name": "strings", "riv": .string(bytes.base64EncodedString())])
            #expect(taken["code"] == "file_exists")
        }
    }
}
