import Foundation
import RiveSyncJSON
import Testing
import RiveSyncTestSupport

/// The daemon's TLS (certificate and key from the configuration) with an independent client
/// that verifies the certificate, and the `Origin` allow-list.
@Suite(.serialized) struct DaemonTLSTests {
    static let token = "tls-client-token-0123456789"
    static let tokens: JSONValue = ["tokens": [AuthDaemon.token("tls", token, [["allow": ["read"], "target": "*"]])]]

    @Test func wssHelloAndRequestWithAVerifiedSelfSignedCertificate() throws {
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: keys) }
        let certificate = keys.appendingPathComponent("cert.pem").path
        let key = keys.appendingPathComponent("key.pem").path
        let openssl = try Self.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        try #require(openssl.status == 0, "openssl: \(openssl.output)")

        let server = try AuthDaemon(
            auth: [], tokens: Self.tokens, extra: [("tls", ["certificate": .string(certificate), "key": .string(key)])])
        defer { server.stop() }
        let url = "wss://127.0.0.1:\(server.daemon.port)/"
        let request: JSONValue = ["type": "get", "target": "theme", "path": "name"]
        let client = try Self.run(
            "/usr/bin/python3",
            [DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/python/wss_client.py", url, certificate, Self.token, request.jsonText])
        try #require(client.status == 0, "wss client: \(client.output)\n\(server.daemon.stderr)")
        let replies = try client.output.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        #expect(replies.first?["type"] == "welcome", "\(client.output)")
        #expect(replies.last?["type"] == "value" && replies.last?["value"] == "Light", "\(client.output)")
    }

    @Test func anOriginNotListedIsClosedWith1008() async throws {
        let server = try AuthDaemon(auth: [("allowedOrigins", ["https://app.example"])], tokens: Self.tokens)
        defer { server.stop() }
        let refused = try await server.hello(origin: "https://evil.example", token: Self.token)
        #expect(refused == .closed(code: 1008), "\(refused)")
        let allowed = try await server.hello(origin: "https://app.example", token: Self.token)
        guard case .message(let welcome) = allowed else { throw TestClient.Timeout(what: "welcome, got \(allowed)") }
        #expect(welcome["type"] == "welcome", "\(welcome.jsonText)")
    }

    /// Runs a program to completion; returns its exit status and stdout + stderr.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
