import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

/// The daemon's TLS (certificate and key from the configuration) with an independent client
/// that verifies the certificate, and the `Origin` allow-list.
@Suite(.serialized) struct DaemonTLSTests {
    static let token = "tls-client-token-0123456789"
    static let tokens: JSONValue = ["tokens": [AuthDaemon.token("tls", token, [["allow": ["read"], "target": "*"]])]]

    @Test func wssHelloAndRequestWithAVerifiedSelfSignedCertificate() async throws {
        let tls = try TemporaryCertificate()
        defer { tls.remove() }
        let (certificate, key) = (tls.certificate, tls.key)

        try await withAuthDaemon(
            auth: [], tokens: Self.tokens, extra: [("tls", ["certificate": .string(certificate), "key": .string(key)])]
        ) { server in
            let url = "wss://127.0.0.1:\(server.daemon.port)/"
            let request: JSONValue = ["type": "get", "target": "theme", "path": "name"]
            let client = try ChildProcess.run(
                "/usr/bin/python3",
                [
                    DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/python/wss_client.py", url, certificate, Self.token,
                    request.jsonText,
                ], output: .merged)
            try #require(client.status == 0, "wss client: \(client.output)\n\(server.daemon.stderr)")
            let replies = try client.output.split(separator: "\n").map { try JSONParser().parse(String($0)) }
            #expect(replies.first?["type"] == "welcome", "\(client.output)")
            #expect(replies.last?["type"] == "value" && replies.last?["value"] == "Light", "\(client.output)")
        }
    }

    /// A self-signed certificate for 127.0.0.1 and its key, in `directory`.
    static func makeCertificate(_ directory: URL, _ name: String) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).crt").path
        let key = directory.appendingPathComponent("\(name).key").path
        try makeSelfSignedCertificate(certificate: certificate, key: key)
        return (certificate, key)
    }

    /// SIGHUP re-reads the certificate and key: new connections verify against the new
    /// certificate only; a broken file or a key of another certificate is refused and the
    /// running pair kept.
    @Test func sighupReloadsTheCertificate() async throws {
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: keys) }
        let old = try Self.makeCertificate(keys, "old")
        let new = try Self.makeCertificate(keys, "new")
        let live = (certificate: keys.appendingPathComponent("live.crt").path, key: keys.appendingPathComponent("live.key").path)
        func install(_ pair: (certificate: String, key: String)) throws {
            for (from, to) in [(pair.certificate, live.certificate), (pair.key, live.key)] {
                try? FileManager.default.removeItem(atPath: to + ".tmp")
                try FileManager.default.copyItem(atPath: from, toPath: to + ".tmp")
                guard rename(to + ".tmp", to) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
        }
        try install(old)
        try await withAuthDaemon(
            auth: [], tokens: Self.tokens, extra: [("tls", ["certificate": .string(live.certificate), "key": .string(live.key)])]
        ) { server in
            let url = "wss://127.0.0.1:\(server.daemon.port)/"
            func verifies(with authority: String) throws -> Bool {
                let request: JSONValue = ["type": "get", "target": "theme", "path": "name"]
                let script = DaemonProcess.packageRoot + "/Tests/RiveSyncServerTests/python/wss_client.py"
                let client = try ChildProcess.run(
                    "/usr/bin/python3", [script, url, authority, Self.token, request.jsonText], output: .merged)
                if client.status != 0 { #expect(client.output.contains("CERTIFICATE_VERIFY_FAILED"), "\(client.output)") }
                return client.status == 0
            }
            func reload(expecting marker: String) async throws {
                let mark = server.daemon.stderrLines.count
                kill(server.daemon.pid, SIGHUP)
                try await server.daemon.waitForLine(containing: marker, skipping: mark)
            }
            #expect(try verifies(with: old.certificate) && !verifies(with: new.certificate))

            try install(new)
            try await reload(expecting: #"msg="reload: applied" key=tls"#)
            #expect(try verifies(with: new.certificate) && !verifies(with: old.certificate), "\(server.daemon.stderr)")

            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: live.certificate))
            try await reload(expecting: #"msg="reload: certificate rejected; keeping the old one""#)
            #expect(try verifies(with: new.certificate), "a broken file keeps the running pair")

            try install((old.certificate, new.key))
            try await reload(expecting: #"msg="reload: certificate rejected; keeping the old one""#)
            #expect(try verifies(with: new.certificate), "a key of another certificate keeps the running pair")
        }
    }

    @Test func anOriginNotListedIsClosedWith1008() async throws {
        try await withAuthDaemon(auth: [("allowedOrigins", ["https://app.example"])], tokens: Self.tokens) { server in
            let refused = try await server.hello(origin: "https://evil.example", token: Self.token)
            #expect(refused == .closed(code: 1008), "\(refused)")
            let allowed = try await server.hello(origin: "https://app.example", token: Self.token)
            guard case .message(let welcome) = allowed else { throw TestClient.Timeout(what: "welcome, got \(allowed)") }
            #expect(welcome["type"] == "welcome", "\(welcome.jsonText)")
        }
    }
}
