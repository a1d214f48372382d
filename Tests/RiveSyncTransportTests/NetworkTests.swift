import Foundation
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct NetworkTests {
    /// LWS.md §3.1: with IPv6 enabled, lws 4.1.6 binds "127.0.0.1" to all interfaces.
    @Test func listensOnLoopbackOnly() async throws {
        try await withServer { server, _ in
            let port = try #require(server.port)
            let hexPort = String(format: "%04X", port)
            // Read to the end: `String(contentsOfFile:)` stops at 4 KiB of a /proc file, and a full
            // test run has enough sockets open to put the listener past it.
            let listening4 = Self.listeners(try Self.procText("/proc/net/tcp"), port: hexPort)
            #expect(listening4 == ["0100007F:\(hexPort)"])
            #expect(Self.listeners(try Self.procText("/proc/net/tcp6"), port: hexPort).isEmpty)
        }
    }

    static func procText(_ path: String) throws -> String {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        let data = try handle.readToEnd() ?? Data()
        try handle.close()
        return String(decoding: data, as: UTF8.self)
    }

    /// Local addresses of LISTEN (state 0A) sockets on `port` in /proc/net/tcp(6) text.
    static func listeners(_ table: String, port: String) -> [String] {
        table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A", fields[1].hasSuffix(":\(port)") else { return nil }
            return String(fields[1])
        }
    }

    @Test func healthzMetricsAndNotFound() async throws {
        try await withServer { server, _ in
            let port = try #require(server.port)
            let health = try RawSocket.httpGet(port: port, path: "/healthz")
            #expect(health.hasPrefix("HTTP/1.1 200"))
            #expect(health.hasSuffix("\r\n\r\nok\n"))
            let metrics = try RawSocket.httpGet(port: port, path: "/metrics")
            #expect(metrics.hasPrefix("HTTP/1.1 200"))
            #expect(metrics.contains("\nrivesync_transport_http_requests_total 2\n"))
            #expect(try RawSocket.httpGet(port: port, path: "/nope").hasPrefix("HTTP/1.1 404"))
            let garbage = try RawSocket(port: port)
            try garbage.send([UInt8](repeating: 0xFF, count: 64) + Array("\r\n\r\n".utf8))
            _ = garbage.readToEnd()
            #expect(try RawSocket.httpGet(port: port, path: "/healthz").hasSuffix("ok\n"))
        }
    }

    @Test func metricsBodyComesFromCaller() async throws {
        let handler = RecordingHandler(echo: false)
        let server = WebSocketServer(
            configuration: .init(), handler: handler,
            metricsBody: { metrics in
                "app_up 1\n" + metrics.prometheusText(prefix: "app_transport")
            })
        try server.start()
        defer { server.stop() }
        let response = try RawSocket.httpGet(port: try #require(server.port), path: "/metrics")
        #expect(
            response.contains(
                "\r\n\r\napp_up 1\n# HELP app_transport_connections_opened_total WebSocket sessions opened.\n"
                    + "# TYPE app_transport_connections_opened_total counter\n"))
    }

    @Test func metricsAccessSeesTheAuthorizationHeaderAndThePeer() async throws {
        let seen = Locked<[String]>([])
        let server = WebSocketServer(
            configuration: .init(), handler: RecordingHandler(echo: false),
            metricsAccess: { authorization, peer in
                seen.withLock { $0.append("\(authorization ?? "-") from \(peer)") }
                switch authorization {
                case "Bearer good"?: return .allowed
                case "Bearer weak"?: return .forbidden
                default: return .unauthorized
                }
            })
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        let none = try RawSocket.httpGet(port: port, path: "/metrics")
        #expect(
            none.hasPrefix("HTTP/1.1 401") && none.contains("\r\nwww-authenticate: Bearer realm=\"rivesyncd\"\r\n")
                && !none.contains("# TYPE"), "\(none)")
        let weak = try RawSocket.httpGet(port: port, path: "/metrics", headers: "Authorization: Bearer weak\r\n")
        #expect(weak.hasPrefix("HTTP/1.1 403") && !weak.contains("# TYPE"), "\(weak)")
        let good = try RawSocket.httpGet(port: port, path: "/metrics", headers: "Authorization: Bearer good\r\n")
        #expect(good.hasPrefix("HTTP/1.1 200") && good.contains("# TYPE rivesync_transport_connections_opened_total counter"), "\(good)")
        #expect(try RawSocket.httpGet(port: port, path: "/healthz").hasSuffix("\r\n\r\nok\n"), "health is not asked about")
        #expect(seen.withLock { $0 } == ["- from 127.0.0.1", "Bearer weak from 127.0.0.1", "Bearer good from 127.0.0.1"])
    }

    @Test func invalidUTF8TextFrameGets1007() async throws {
        try await withServer { server, _ in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            try socket.send(RawSocket.clientFrame(opcode: 1, payload: [0x61, 0xC3, 0x28]))
            let frame = try #require(socket.readFrame())
            #expect(frame.opcode == 8)
            #expect(closeCode(frame.payload) == 1007)
        }
    }

    @Test func clientWithoutSubprotocolIsServed() async throws {
        try await withServer { server, _ in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade(subprotocol: nil).hasPrefix("HTTP/1.1 101"))
            try socket.send(RawSocket.clientFrame(opcode: 1, payload: Array("hi".utf8)))
            let frame = try #require(socket.readFrame())
            #expect(frame.opcode == 1 && frame.payload == Array("hi".utf8))
        }
    }

    @Test func pythonWebsocketsClientRoundTrip() async throws {
        try await withServer { server, _ in
            let port = try #require(server.port)
            let script = """
                import asyncio, sys, websockets
                async def main():
                    async with websockets.connect("ws://127.0.0.1:\(port)/py", subprotocols=["rivesync.v1"]) as ws:
                        assert ws.subprotocol == "rivesync.v1", ws.subprotocol
                        await ws.send("from python")
                        assert await ws.recv() == "from python"
                        await ws.send(bytes(range(256)) * 1000)
                        assert await ws.recv() == bytes(range(256)) * 1000
                    print("ok")
                asyncio.run(main())
                """
            let python = try ChildProcess.run("/usr/bin/python3", ["-c", script], output: .merged)
            #expect(python.status == 0, "python said: \(python.output)")
            #expect(python.output == "ok\n")
        }
    }

    /// The retry/idle policy makes lws ping a quiet peer and drop one that never answers.
    @Test func quietPeerIsPingedThenDropped() async throws {
        try await withServer({
            $0.pingIntervalSeconds = 1
            $0.idleTimeoutSeconds = 2
        }) { server, handler in
            let socket = try RawSocket(port: try #require(server.port))
            #expect(try socket.upgrade().hasPrefix("HTTP/1.1 101"))
            let ping = try #require(socket.readFrame())
            #expect(ping.opcode == 9)
            while let frame = socket.readFrame() { #expect(frame.opcode == 9 || frame.opcode == 8) }
            try await waitUntil("session closed") { handler.events.contains(.closed(1)) }
        }
    }
}
