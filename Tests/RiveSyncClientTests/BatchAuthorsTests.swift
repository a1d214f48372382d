import XCTest

@testable import RiveSyncClient

/// `Batch.commands` and `Batch.authors` (PROTOCOL.md §17), read from the daemon's batches.
final class BatchAuthorsTests: XCTestCase {
    static let schema =
        #"{"viewModels":[{"name":"P","properties":[{"name":"x","type":"number"}],"instances":[]}],"#
        + #""artboards":[{"name":"A","viewModel":"P","stateMachines":["s"]}]}"#
    static let snapshot =
        #"{"type":"snapshot","id":ID,"target":"s","epoch":"e1","seq":1,"bindings":[{"slot":"main","instance":1}],"#
        + #""instances":[{"id":1,"viewModel":"P","name":"","values":{"x":0}}]}"#
    static let targets =
        #"{"type":"targets","id":ID,"targets":[{"name":"s","file":"f","kind":"stateMachine","artboard":"A","stateMachine":"s","#
        + #""mode":"auto","rate":60,"seq":1,"bindings":[{"slot":"main","instance":1}]}]}"#

    static func batch(seq: Int, x: Int, authors: String?) -> String {
        let effect = #"{"op":"set","paths":["x"],"instance":1,"property":"x","value":\#(x)}"#
        return #"{"type":"batch","target":"s","epoch":"e1","seq":\#(seq),"effects":[\#(effect)],"commands":[7,8]"#
            + (authors.map { #","authors":\#($0)"# } ?? "") + "}"
    }

    func testBatchesCarryTheirCommandsAndAuthors() async throws {
        let daemon = ScriptedDaemon { type, id in
            switch type {
            case "listTargets": [Self.targets.replacingOccurrences(of: "ID", with: "\(id)")]
            case "describe": [#"{"type":"schema","id":\#(id),"file":"f","schema":\#(Self.schema)}"#]
            case "subscribe":
                [
                    Self.snapshot.replacingOccurrences(of: "ID", with: "\(id)"),
                    Self.batch(seq: 2, x: 1, authors: #"[{"client":"inspector/2.1","token":"qa"},{}]"#),
                    Self.batch(seq: 3, x: 2, authors: nil),
                ]
            default: []
            }
        }
        let worker = try await Worker(url: "ws://scripted", reconnect: false, transport: daemon)
        let target = try await worker.target(named: "s")
        var received: [Batch] = []
        for try await batch in target.batches() {
            received.append(batch)
            if received.count == 2 { break }
        }
        XCTAssertEqual(received.map(\.seq), [2, 3])
        XCTAssertEqual(received[0].commands, [7, 8])
        XCTAssertEqual(received[0].authors, [Batch.Author(client: "inspector/2.1", token: "qa"), nil])
        XCTAssertNil(received[1].authors, "a daemon that records no authors sends none")
        XCTAssertEqual(daemon.closeCodes, [])
        await worker.close()
    }
}
