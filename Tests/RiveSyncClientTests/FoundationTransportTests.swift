import RiveSyncFoundationWebSocket
import XCTest

@testable import RiveSyncClient

/// The Foundation transport for real on Linux: swift-corelibs-foundation needs a libcurl with
/// WebSocket support, which Debian 12's lacks, so connecting fails — typed, and without a hang.
final class FoundationTransportTests: ClientTestCase {
    func testConnectingThroughURLSessionFailsWithATypedErrorHere() async throws {
        try startDemoProcess()
        let url = process.url
        do {
            _ = try await within { try await Worker(url: url, reconnect: false, transport: FoundationWebSocketTransport()) }
            XCTFail("URLSessionWebSocketTask connected: this libcurl has WebSocket support, update the client README")
        } catch WorkerError.connectionFailed(let message) {
            XCTAssertTrue(message.hasPrefix(url), message)
            print("Foundation transport on this machine: \(message)")
        }
    }
}
