import Foundation
import RiveSyncJSON
import Testing
import RiveSyncTestSupport

/// Places where the daemon did not do what PROTOCOL.md says, found by reading the document
/// as a third-party client author would; each test failed on fc7e991.
@Suite(.serialized) struct DocumentedBehaviourTests {
    /// §13: a limit is `limit_exceeded` with the limit's name, `maxInstancesPerFile` too.
    @Test func theInstanceLimitIsLimitExceeded() async throws {
        let config = try DaemonProcess.writeConfiguration(
            #"{"files": [{"name": "demo", "path": "\#(DaemonProcess.packageRoot)/protocol/examples/demo.schema.json"}],"#
                + #""limits": {"maxInstancesPerFile": 16}, "auth": {"allowAnonymous": "loopback"}}"#)
        let daemon = try DaemonProcess(["--config", config])
        defer { daemon.stop() }
        let client = try await TestClient.connected(to: daemon)
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
