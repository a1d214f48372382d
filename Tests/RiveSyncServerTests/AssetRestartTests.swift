import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// An uploaded asset is kept in the state directory: after a restart the workers know it
/// again (the store tells them as it restores), so a `set` naming it is acked, and an unknown
/// one is still `invalid_asset`.
@Suite struct AssetRestartTests {
    @Test func anUploadIsKnownAgainAfterARestart() async throws {
        let state = try PersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }  // cleanup only
        let schema: JSONValue = [
            "rivesyncSchema": 1, "viewModels": [["name": "Card", "properties": [["name": "picture", "type": "assetImage"]]]],
        ]
        let daemon = try await DaemonProcess.start(["--demo", "--state-dir", state])
        let client = try await TestClient.connected(to: daemon)
        let loaded = try await client.request(["type": "loadFile", "name": "cards", "schema": schema])
        #expect(loaded["type"] == "files", "\(loaded.jsonText)")
        let made = try await client.request([
            "type": "createInstance", "file": "cards", "source": ["blank": ["viewModel": "Card"]], "publish": "card",
        ])
        #expect(made["type"] == "instance", "\(made.jsonText)")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7]
        let uploaded = try await client.request(["type": "upload", "kind": "image", "data": .string(Data(png).base64EncodedString())])
        let asset = try #require(uploaded["asset"], "\(uploaded.jsonText)")
        #expect(await daemon.stopped() == 0)

        try await withDaemon(["--demo", "--state-dir", state]) { daemon in
            let client = try await TestClient.connected(to: daemon)
            let set = try await client.request(["type": "set", "target": "card", "path": "picture", "value": asset])
            #expect(set["type"] == "ack", "\(set.jsonText)\n\(daemon.stderr)")
            let unknown: JSONValue = [
                "id": .string("sha256:" + String(repeating: "0", count: 64)), "bytes": asset["bytes"] ?? .null,
                "mediaType": asset["mediaType"] ?? .null,
            ]
            let refused = try await client.request(["type": "set", "target": "card", "path": "picture", "value": unknown])
            #expect(refused["code"] == "invalid_asset", "\(refused.jsonText)")
        }
    }
}
