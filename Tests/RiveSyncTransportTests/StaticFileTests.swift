import RiveSyncTestSupport
import RiveSyncTransport
import Testing

/// `Configuration.staticFiles`: GET of a configured path answers its bytes, type and headers;
/// other paths and other methods stay 404; bad tables are refused at start.
@Suite struct StaticFileTests {
    @Test func configuredFilesAreServedWithTheirHeaders() async throws {
        var configuration = WebSocketServer.Configuration()
        let body = Array("<!doctype html><p>hi</p>".utf8) + [0x00, 0xFF]
        configuration.staticFiles = [
            "/": StaticFile(
                contentType: "text/html; charset=utf-8", bytes: body, headers: [("Content-Security-Policy", "default-src 'self'")]),
            "/big.js": StaticFile(contentType: "text/javascript", bytes: [UInt8](repeating: 0x61, count: 300_000)),
        ]
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        try server.start()
        defer { server.stop() }
        let port = try #require(server.port)
        let page = try RawSocket.httpGet(port: port, path: "/?token=ignored")
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.lowercased().contains("content-type: text/html; charset=utf-8\r\n"))
        #expect(page.contains("Content-Security-Policy: default-src 'self'\r\n"))
        #expect(page.lowercased().contains("content-length: \(body.count)\r\n"))
        let big = try RawSocket.httpGet(port: port, path: "/big.js")
        #expect(big.hasPrefix("HTTP/1.1 200"))
        #expect(big.hasSuffix("\r\n\r\n" + String(repeating: "a", count: 300_000)), "a body larger than one socket write arrives whole")
        #expect(try RawSocket.httpGet(port: port, path: "/big.js/").hasPrefix("HTTP/1.1 404"))
        #expect(try RawSocket.httpGet(port: port, path: "/index.html").hasPrefix("HTTP/1.1 404"))
        let post = try RawSocket(port: port)
        try post.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(!String(decoding: post.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(try RawSocket.httpGet(port: port, path: "/healthz").hasSuffix("ok\n"))
    }

    @Test(arguments: ["nope", "/healthz", "/metrics"])
    func badPathsAreRefused(path: String) throws {
        var configuration = WebSocketServer.Configuration()
        configuration.staticFiles = [path: StaticFile(contentType: "text/plain", bytes: [])]
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        #expect(throws: TransportError.self) { try server.start() }
    }

    @Test func headerInjectionIsRefused() throws {
        var configuration = WebSocketServer.Configuration()
        configuration.staticFiles = ["/": StaticFile(contentType: "text/plain", bytes: [], headers: [("X-A", "1\r\nSet-Cookie: x")])]
        let server = WebSocketServer(configuration: configuration, handler: RecordingHandler(echo: false))
        #expect(throws: TransportError.self) { try server.start() }
    }
}
