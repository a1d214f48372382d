import Foundation
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// A peer that half-closes (FIN) while lws still holds part of a response for it must not
/// wedge the service thread (lws 4.1.6 retried such a socket's poll slot forever inside one
/// `lws_service`; see `ServerLoop+Reading.swift`): a plain HTTP request for a large static
/// file from a 4 KiB receive window, then `shutdown(SHUT_WR)`; `/healthz` must still answer.
/// (lws' HTTP role was not caught by that loop — this passes on fc7e991 too; it guards the
/// HTTP path, which the WebSocket fix in `updateReading` does not cover. The WebSocket case is
/// `availability.py slow_subscriber`.)
@Suite struct HalfCloseTests {
    @Test func halfClosedHTTPPeerWithAPartialResponseDoesNotWedgeTheServer() async throws {
        try await withServer({
            $0.staticFiles = [
                "/big.bin": StaticFile(contentType: "application/octet-stream", bytes: [UInt8](repeating: 0x61, count: 4 << 20))
            ]
        }) { server, _ in
            let port = try #require(server.port)
            var peers: [RawSocket] = []
            for _ in 0..<4 {
                let peer = try RawSocket(port: port, receiveBufferBytes: 4096)
                try peer.send("GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                peers.append(peer)
            }
            try await Task.sleep(nanoseconds: 300_000_000)  // the response is under way and stuck
            for peer in peers { peer.shutdownWrite() }
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(try RawSocket.httpGet(port: port, path: "/healthz").hasSuffix("ok\n"))
            withExtendedLifetime(peers) {}
        }
    }

    /// The WebSocket case at the transport: an echo peer with a 4 KiB receive window sends
    /// 64 KiB messages and reads none of the echoes, then half-closes. (On fc7e991 the service
    /// thread span here: `/healthz` timed out and `stop()` never returned.)
    @Test func halfClosedWebSocketPeerThatReadsNothingDoesNotWedgeTheServer() async throws {
        try await withServer({ $0.socketSendBufferBytes = 8192 }) { server, _ in
            let port = try #require(server.port)
            var peers: [RawSocket] = []
            for _ in 0..<4 {
                let peer = try RawSocket(port: port, receiveBufferBytes: 4096)
                #expect(try peer.upgrade().hasPrefix("HTTP/1.1 101"))
                let message = RawSocket.clientFrame(opcode: 2, payload: [UInt8](repeating: 7, count: 64 << 10))
                for _ in 0..<8 { try peer.send(message) }
                peers.append(peer)
            }
            try await Task.sleep(nanoseconds: 500_000_000)  // echoes are under way and stuck
            for peer in peers { peer.shutdownWrite() }
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(try RawSocket.httpGet(port: port, path: "/healthz").hasSuffix("ok\n"))
            withExtendedLifetime(peers) {}
        }
    }
}
