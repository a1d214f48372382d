import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// Places where the daemon did not do what PROTOCOL.md says, found by reading the document
/// as a third-party client author would; each test failed on fc7e991. The whole daemon
/// in-process (`InProcessDaemon`).
@Suite(.serialized) struct DocumentedBehaviourTests {
    /// §13: a limit is `limit_exceeded` with the limit's name, `maxInstancesPerFile` too.
    @Test func theInstanceLimitIsLimitExceeded() async throws {
        let config = try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(DaemonProcess.packageRoot)/protocol/examples/demo.schema.json"}],"#
                + #""limits": {"maxInstancesPerFile": 16}, "auth": {"allowAnonymous": "loopback"}}"#)
        try await withInProcessDaemon(["--config", config]) { daemon in
            let client = try await daemon.connected()
            var last: JSONValue = .null
            for _ in 0..<17 {
                last = try await client.request(["type": "createInstance", "file": "demo", "source": ["blank": ["viewModel": "Player"]]])
                if last["type"] == "error" { break }
            }
            #expect(last["code"] == "limit_exceeded", "\(last.jsonText)")
            #expect(last["details"] == ["limit": "maxInstancesPerFile", "value": 16], "\(last.jsonText)")
            let machine = try await client.request(["type": "createStateMachine", "file": "demo", "artboard": "Lobby"])
            #expect(machine["code"] == "limit_exceeded", "a state machine needing default instances: \(machine.jsonText)")
        }
    }
}

extension DocumentedBehaviourTests {
    /// §6: a bind with neither `main` nor globals is valid by nothing: it gets `bad_message`
    /// (it used to take a command number and never get a reply).
    @Test func aBindOfNothingIsRefused() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            for bind: JSONValue in [
                ["type": "bind", "target": "lobby"], ["type": "bind", "target": "lobby", "main": .null, "globals": []],
            ] {
                let reply = try await client.request(bind)
                #expect(reply["code"] == "bad_message" && reply["details"]?["field"] == "main", "\(reply.jsonText)")
            }
            #expect(try await client.request(["type": "ping"])["type"] == "pong")
        }
    }

    /// §7: a cursor that is not `{epoch, seq}` is reported as field `cursor`.
    @Test func aMalformedCursorNamesTheCursor() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = try await daemon.connected()
            for cursor: JSONValue in [5, "e-1:3", ["epoch": "e-1"], ["seq": 3]] {
                let reply = try await client.request(["type": "subscribe", "target": "lobby", "cursor": cursor])
                #expect(reply["code"] == "bad_message" && reply["details"]?["field"] == "cursor", "\(cursor.jsonText): \(reply.jsonText)")
            }
        }
    }

    /// §3: before `welcome`, anything but `hello` — an unknown type too — is `hello_required`.
    @Test func anUnknownTypeBeforeHelloIsHelloRequired() async throws {
        try await withInProcessDaemon(["--demo"]) { daemon in
            let client = daemon.connect()
            let reply = try await client.request(["type": "dance"])
            #expect(reply["code"] == "hello_required", "\(reply.jsonText)")
            let malformedHello = try await client.request(["type": "hello", "protocol": "one"])
            #expect(malformedHello["code"] == "bad_message", "a malformed hello is still bad_message: \(malformedHello.jsonText)")
        }
    }
}

extension DocumentedBehaviourTests {
    /// §5: `listFiles` says where each file came from.
    @Test func listFilesGivesEachFilesSource() async throws {
        let config = try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(DaemonProcess.packageRoot)/protocol/examples/demo.schema.json"}],"#
                + #""allowFileUploads": true, "auth": {"allowAnonymous": "loopback"}}"#)
        try await withInProcessDaemon(["--config", config]) { daemon in
            let client = try await daemon.connected()
            let loaded = try await client.request([
                "type": "loadFile", "name": "extra",
                "schema": ["rivesyncSchema": 1, "viewModels": [["name": "A", "properties": [["name": "n", "type": "number"]]]]],
            ])
            #expect(loaded["type"] == "files", "\(loaded.jsonText)")
            let files = try await client.request(["type": "listFiles"])
            let sources = (files["files"]?.arrayValue ?? []).map {
                "\($0["name"]?.stringValue ?? "?")=\($0["source"]?.stringValue ?? "none")"
            }
            #expect(sources == ["demo=config", "extra=upload"], "\(files.jsonText)")
        }
    }
}
