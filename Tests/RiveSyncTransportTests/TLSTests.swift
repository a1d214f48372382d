import Foundation
import RiveSyncTestSupport
import RiveSyncTransport
import Testing

@Suite struct TLSTests {
    @Test func wssRoundTripWithSelfSignedCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try makeSelfSignedCertificate(certificate: cert, key: key)

        try await withServer({
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }) { server, _ in
            let port = try #require(server.port)
            try await withClient { client in
                let (connection, stream) = try client.connect(
                    to: "wss://127.0.0.1:\(port)/secure", subprotocol: "rivesync.v1",
                    tls: .init(allowSelfSigned: true, skipHostnameCheck: true))
                connection.send(text: "over tls")
                let big = [UInt8](repeating: 0x5A, count: 300_000)
                connection.send(bytes: big)
                let events = try await collect(stream) { $0 == .message(big, isText: false) || $0.isTerminal }
                #expect(
                    events == [
                        .opened(subprotocol: "rivesync.v1"), .message(Array("over tls".utf8), isText: true),
                        .message(big, isText: false),
                    ])

                let (_, strict) = try client.connect(to: "wss://127.0.0.1:\(port)/", subprotocol: "rivesync.v1")
                let strictEvents = try await collect(strict) { $0.isTerminal }
                guard case .failed = strictEvents.last else {
                    Issue.record("a self-signed certificate must fail full verification, got \(strictEvents)")
                    return
                }
            }
            // Plain HTTP on the TLS port is refused without hanging.
            #expect(!(try RawSocket.httpGet(port: port, path: "/healthz")).hasPrefix("HTTP/1.1 200"))
        }
    }
}
