import Foundation
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct LifecycleTests {
    @Test func stopSends1001ToEveryClient() async throws {
        let handler = RecordingHandler(echo: false)
        let server = WebSocketServer(configuration: .init(), handler: handler)
        try server.start()
        let port = try #require(server.port)
        try await withClient { client in
            var streams: [AsyncStream<ClientEvent>] = []
            for _ in 0..<3 {
                streams.append(try client.connect(to: "ws://127.0.0.1:\(port)/", subprotocol: "rivesync.v1").1)
            }
            try await waitUntil("sessions open") { handler.openedIDs.count == 3 }
            server.stop(closeCode: 1001)
            #expect(server.port == nil)
            #expect(!server.send(Payload(text: "late"), to: SessionIDs(handler.openedIDs)))
            for stream in streams {
                let events = try await collect(stream) { $0.isTerminal }
                #expect(events.last == .closed(code: 1001, reason: "server shutting down"))
            }
            #expect(handler.events.filter { if case .closed = $0 { true } else { false } }.count == 3)
        }
        server.stop()
    }

    @Test func portInUseIsATypedError() async throws {
        try await withServer { server, _ in
            var configuration = WebSocketServer.Configuration()
            configuration.port = try #require(server.port)
            let second = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
            #expect { try second.start() } throws: { ($0 as? TransportError)?.kind == .addressInUse }
            #expect(second.port == nil)
        }
    }

    @Test func badConfigurationIsATypedError() {
        var configuration = WebSocketServer.Configuration()
        configuration.port = 70000
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        #expect { try server.start() } throws: { ($0 as? TransportError)?.kind == .invalidConfiguration }
    }

    @Test func unreadableCertificateIsATypedError() {
        var configuration = WebSocketServer.Configuration()
        configuration.tlsCertificatePath = "/nonexistent/cert.pem"
        configuration.tlsKeyPath = "/nonexistent/key.pem"
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        #expect { try server.start() } throws: { ($0 as? TransportError)?.kind == .tlsSetupFailed }
    }

    @Test func clientReportsConnectFailure() async throws {
        let port = try await withServer { server, _ in try #require(server.port) }
        try await withClient { client in
            let (_, stream) = try client.connect(to: "ws://127.0.0.1:\(port)/")
            let events = try await collect(stream) { $0.isTerminal }
            guard case .failed = events.last else {
                Issue.record("expected .failed, got \(events)")
                return
            }
        }
        #expect(WebSocketURL("http://x") == nil)
    }

    @Test func adoptedSocketIsServed() async throws {
        try await withServer { server, handler in
            var fds: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            #expect(server.submit([.adopt(fileDescriptor: fds[0])]))
            let socket = RawSocket(fd: fds[1])
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try socket.send(RawSocket.clientFrame(opcode: 1, payload: Array("adopted".utf8)))
            let frame = try #require(socket.readFrame())
            #expect(frame.payload == Array("adopted".utf8))
            #expect(handler.openedIDs.count == 1)
        }
    }
}
