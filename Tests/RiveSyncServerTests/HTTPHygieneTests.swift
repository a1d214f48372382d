import Foundation
import RiveSyncTestSupport
import Testing

/// The HTTP stage of the daemon's port (docs/OPERATING.md, "HTTP on the WebSocket port"): bounded by
/// `helloTimeoutSeconds`, `HEAD` answered like `GET` without a body, request headers past
/// 16 KiB answered 431.
@Suite struct HTTPHygieneTests {
    /// The status line and the rest of a raw HTTP answer.
    static func head(_ response: String) -> (status: String, rest: String) {
        let status = response.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        return (status, String(response.dropFirst(status.count)))
    }

    /// A socket that sends nothing, and one whose request never ends, are closed after
    /// `helloTimeoutSeconds` (2 here), not after lws' own 10 s.
    @Test func theRequestStageIsBoundedByTheHelloTimeout() async throws {
        let config = try DaemonProcess.writeConfiguration(
            #"{"auth": {"allowAnonymous": "loopback"}, "limits": {"helloTimeoutSeconds": 2}}"#)
        try await withDaemon(["--config", config]) { daemon in
            try await offThePool {
                for request in ["", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"] {
                    let socket = try RawSocket(port: daemon.port, timeoutSeconds: 30)
                    if !request.isEmpty { try socket.send(request) }
                    let started = ContinuousClock.now
                    let answer = socket.readToEnd()
                    let waited = ContinuousClock.now - started
                    #expect(answer.isEmpty, "nothing is answered to an unfinished request")
                    // The bound is the setting (2 s); lws' own default would have been 10 s.
                    #expect(waited < .seconds(8), "closed after \(waited) with helloTimeoutSeconds 2 (request \(request.debugDescription))")
                    print("an unfinished HTTP request (\(request.isEmpty ? "nothing sent" : "no blank line")) closed after \(waited)")
                }
            }
        }
    }

    /// `HEAD` of `/healthz`, `/readyz`, the demo's pages and an unknown path: `GET`'s status
    /// and headers, `content-length` included, and no body.
    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await withDaemon(["--demo"]) { daemon in
            try await offThePool {
                for path in ["/healthz", "/readyz", "/", "/preview.html", "/nowhere"] {
                    let get = Self.head(try RawSocket.httpGet(port: daemon.port, path: path))
                    let socket = try RawSocket(port: daemon.port)
                    try socket.send("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    let response = String(decoding: socket.readToEnd(), as: UTF8.self)
                    let head = Self.head(response)
                    #expect(head.status == get.status, "HEAD \(path): \(head.status), GET: \(get.status)")
                    #expect(response.hasSuffix("\r\n\r\n"), "HEAD \(path) has no body: \(response.debugDescription)")
                    let length = response.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    let body = get.rest.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
                    if path != "/nowhere" {
                        #expect(length == "content-length: \(body.utf8.count)", "HEAD \(path): \(length ?? "no content-length")")
                    }
                }
            }
        }
    }

    /// Headers up to 16 KiB are served (a browser's big cookies); past it a request, or a
    /// WebSocket upgrade, gets 431 and nothing else.
    @Test func requestHeadersPastTheLimitGet431() async throws {
        try await withDaemon(["--demo"]) { daemon in
            try await offThePool {
                let eight = "X-Padding: " + String(repeating: "a", count: 8 * 1024) + "\r\n"
                #expect(Self.head(try RawSocket.httpGet(port: daemon.port, path: "/healthz", headers: eight)).status == "HTTP/1.1 200 OK")
                let big = "X-Padding: " + String(repeating: "a", count: 20 * 1024) + "\r\n"
                let refused = try RawSocket.httpGet(port: daemon.port, path: "/healthz", headers: big)
                #expect(refused.hasPrefix("HTTP/1.1 431"), "\(refused.prefix(200))")
                #expect(refused.contains("request headers larger than 16384 bytes"), "\(refused.prefix(300))")
                let socket = try RawSocket(port: daemon.port)
                let upgrade = try socket.upgrade(headers: big)
                #expect(upgrade.hasPrefix("HTTP/1.0 431") || upgrade.hasPrefix("HTTP/1.1 431"), "\(upgrade.prefix(200))")
                // Within the limit, an upgrade with big headers still works.
                let fine = try RawSocket.webSocket(port: daemon.port, headers: eight)
                fine.close()
            }
        }
    }
}
