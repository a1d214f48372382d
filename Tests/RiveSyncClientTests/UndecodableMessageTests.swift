import XCTest

@testable import RiveSyncClient

/// Every server message is read by the protocol's decoder: a reply that does not decode is a
/// typed error and a documented close (1002), never a default; what a newer daemon may send
/// (PROTOCOL.md §14) is not.
final class UndecodableMessageTests: XCTestCase {
    private func connect(_ daemon: ScriptedDaemon) async throws -> Worker {
        try await Worker(url: "ws://scripted", reconnect: false, transport: daemon)
    }

    func testAReplyWithAWronglyTypedFieldClosesWith1002() async throws {
        let daemon = ScriptedDaemon { type, id in
            [#"{"type":"files","id":\#(id),"files":[{"name":7,"worker":0,"source":"config"}]}"#]
        }
        let worker = try await connect(daemon)
        do {
            _ = try await worker.getFileNames()
            XCTFail("a files reply with a numeric name was accepted")
        } catch WorkerError.protocolViolation(let reason) {
            XCTAssertTrue(reason.contains("files[0].name"), reason)
        }
        XCTAssertEqual(daemon.closeCodes, [1002])
        do {
            _ = try await worker.getFileNames()
            XCTFail("the worker went on after a protocol violation")
        } catch WorkerError.closed {}
    }

    func testAMessageThatIsNotJSONClosesWith1002() async throws {
        let daemon = ScriptedDaemon { _, _ in ["{not json"] }
        let worker = try await connect(daemon)
        do {
            _ = try await worker.getFileNames()
            XCTFail("a reply that is not JSON was accepted")
        } catch WorkerError.protocolViolation {}
        XCTAssertEqual(daemon.closeCodes, [1002])
    }

    func testAReplyOfAnotherTypeIsAProtocolViolation() async throws {
        let daemon = ScriptedDaemon { _, id in [#"{"type":"pong","id":\#(id)}"#] }
        let worker = try await connect(daemon)
        do {
            _ = try await worker.getFileNames()
            XCTFail("a pong was taken for a files reply")
        } catch WorkerError.protocolViolation(let reason) {
            XCTAssertEqual(reason, "expected a 'files' reply, got 'pong'")
        }
    }

    /// §14: a new message type without a waiting request is ignored, a new error code is
    /// still an error, and unknown fields are ignored.
    func testWhatANewerDaemonMaySendIsNotAViolation() async throws {
        let daemon = ScriptedDaemon { type, id in
            switch type {
            case "listFiles":
                [
                    #"{"type":"roomAnnouncement","who":["a"]}"#,
                    #"{"type":"files","id":\#(id),"files":[{"name":"demo","worker":0,"source":"config","size":12}],"extra":true}"#,
                ]
            default: [#"{"type":"error","id":\#(id),"code":"brand_new","message":"not yet"}"#]
            }
        }
        let worker = try await connect(daemon)
        let files = try await worker.getFileNames()
        XCTAssertEqual(files, ["demo"])
        do {
            _ = try await worker.deleteTarget(named: "x")
            XCTFail("an error with an unknown code was taken for success")
        } catch WorkerError.server(let code, let message) {
            XCTAssertEqual(code, "brand_new")
            XCTAssertEqual(message, "not yet")
        }
        XCTAssertEqual(daemon.closeCodes, [])
        await worker.close()
        XCTAssertEqual(daemon.closeCodes, [1000])
    }
}
