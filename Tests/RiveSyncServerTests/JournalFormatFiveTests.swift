import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// A state directory written in journal format 4 (`journal-v4/`, its README says how) holds a
/// blank `Lobby` made when blank instances' nested view-model properties were null, published
/// as `oldlobby`. It restores as it ran (its `host` null, the same digest before and after the
/// upgrade), while a blank instance made now holds a new blank `Player` in `host`, as Rive's
/// `createViewModelInstance` makes it, and a state machine made with `"bindDefaults": false`
/// keeps its slots empty; the journal is then rewritten in format 5, which restores the same
/// again.
@Suite(.serialized) struct JournalFormatFiveTests {
    @Test func aJournalOfFormatFourReplaysItsBlankInstancesAsTheyRan() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.removeItem(atPath: state)
        try FileManager.default.copyItem(atPath: DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/journal-v4", toPath: state)
        var digests: [JSONValue] = []
        for round in ["format 4", "upgraded"] {
            try await withDaemon(["--demo", "--state-dir", state]) { daemon in
                let client = try TestClient(url: daemon.url)
                _ = try await client.request(["type": "hello", "protocol": [1]])
                let old = try await client.request(["type": "get", "target": "oldlobby", "path": "host"])
                #expect(old["type"] == "value" && old["value"] == .null, "\(round): \(old.jsonText)\n\(daemon.stderr)")
                digests.append(try #require(try await client.request(["type": "digest", "target": "oldlobby"])["digest"]))
                if round == "format 4" {
                    let made = try await client.request([
                        "type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Lobby"]], "publish": "newlobby",
                    ])
                    #expect(made["type"] == "instance", "\(made.jsonText)")
                    let machine = try await client.request([
                        "type": "createStateMachine", "file": "demo", "name": "unbound", "artboard": "Lobby", "mode": "manual",
                        "bindDefaults": false,
                    ])
                    #expect(machine["type"] == "target", "\(machine.jsonText)")
                }
                let listed = try await client.request(["type": "listTargets", "after": "theme"])
                let unbound = listed["targets"]?.arrayValue?.first { $0["name"] == "unbound" }
                #expect(unbound?["bindings"]?.arrayValue?.allSatisfy { $0["instance"] == .null } == true, "\(round): \(listed.jsonText)")
                let new = try await client.request(["type": "get", "target": "newlobby", "path": "host/name"])
                #expect(new["type"] == "value" && new["value"] == "", "\(round): a blank Player in host: \(new.jsonText)")
                #expect(await daemon.stopped() == 0)
                let header = try JSONParser(maxDepth: 512).parse(
                    [UInt8](try #require(FileManager.default.contents(atPath: state + "/files/1/file.json"))))
                #expect(header["format"] == 5, "\(round): file.json is rewritten in the current format")
            }
        }
        #expect(digests.count == 2 && digests[0] == digests[1], "the old instance's digest survives the upgrade: \(digests)")
    }
}
