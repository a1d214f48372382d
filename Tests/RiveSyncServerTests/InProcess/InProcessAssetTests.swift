import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import Synchronization
import Testing

@testable import RiveSyncServer

/// Which uploaded assets exist reaches every worker core as an event (`assetsChanged`) before
/// the upload's reply, so a `set` naming the asset right after the reply is checked against
/// it on any worker, and the store's drops reach the cores too (issue 26: the worker core asks
/// its environment only the clock and SHA-256).
@Suite struct InProcessAssetTests {
    static let schema: JSONValue = [
        "rivesyncSchema": 1, "viewModels": [["name": "Card", "properties": [["name": "picture", "type": "assetImage"]]]],
    ]

    @Test func anUploadIsKnownToEveryWorkerByItsReply() async throws {
        var configuration = DaemonConfiguration.demo()
        configuration.workers = 3
        let daemon = try InProcessDaemon(configuration: configuration)
        let client = try await daemon.connected()
        for file in ["a", "b", "c"] {
            let loaded = try await client.request(["type": "loadFile", "name": .string(file), "schema": Self.schema])
            #expect(loaded["type"] == "files", "\(loaded.jsonText)")
            let made = try await client.request([
                "type": "createInstance", "file": .string(file), "source": ["blank": ["viewModel": "Card"]],
                "publish": .string("\(file)-card"),
            ])
            #expect(made["type"] == "instance", "\(made.jsonText)")
        }
        for round in 0..<3 {
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, UInt8(round)]
            let uploaded = try await client.request(["type": "upload", "kind": "image", "data": .string(Data(png).base64EncodedString())])
            let asset = try #require(uploaded["asset"], "\(uploaded.jsonText)")
            let unknown: JSONValue = [
                "id": .string("sha256:" + String(repeating: "0", count: 64)), "bytes": asset["bytes"] ?? .null,
                "mediaType": asset["mediaType"] ?? .null,
            ]
            for file in ["a", "b", "c"] {
                let target = JSONValue.string("\(file)-card")
                let set = try await client.request(["type": "set", "target": target, "path": "picture", "value": asset])
                #expect(set["type"] == "ack", "\(file), upload \(round): \(set.jsonText)")
                let refused = try await client.request(["type": "set", "target": target, "path": "picture", "value": unknown])
                #expect(refused["code"] == "invalid_asset", "\(refused.jsonText)")
            }
        }
    }

    @Test func theStoreTellsWhatItHoldsThenEachAdditionAndDrop() throws {
        let store = AssetStore(capacityBytes: 10)
        store.restore(id: "sha256:kept", mediaType: "application/octet-stream", byteCount: 4)
        let told = Mutex<[String]>([])
        store.observe { added, removed in told.withLock { $0.append("+\(added) -\(removed)") } }
        store.restore(id: "sha256:restored", mediaType: "application/octet-stream", byteCount: 4)
        let added = try store.add(kind: "blob", data: [1, 2, 3, 4], mediaType: nil).id
        #expect(
            told.withLock { $0 } == [
                "+[\"sha256:kept\"] -[]", "+[\"sha256:restored\"] -[]", "+[\"\(added)\"] -[\"sha256:kept\"]",
            ], "the oldest is dropped past 10 bytes")
    }
}
