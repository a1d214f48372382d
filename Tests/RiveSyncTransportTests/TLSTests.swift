import Foundation
import RiveSyncTestSupport
import Testing

@testable import RiveSyncTransport

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

    /// Every lws context made in the process (here: client contexts, made and shut down in a
    /// loop on another thread) used to fail any client TLS handshake it overlapped ("connect
    /// SSL err 1", `ContextCreations`): 100 `wss://` connections to two service threads all
    /// open while contexts keep being made.
    @Test func wssHandshakesSurviveContextsMadeMeanwhile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try makeSelfSignedCertificate(certificate: cert, key: key)
        try await withServer({
            $0.serviceThreads = 2
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }) { server, handler in
            let port = try #require(server.port)
            let churn = ContextChurn()
            defer { churn.stop() }
            try await withClient { client in
                for index in 0..<100 {
                    let (connection, stream) = try client.connect(
                        to: "wss://127.0.0.1:\(port)/", subprotocol: "rivesync.v1",
                        tls: .init(allowSelfSigned: true, skipHostnameCheck: true))
                    let events = try await collect(stream) { $0 == .opened(subprotocol: "rivesync.v1") || $0.isTerminal }
                    try #require(events == [.opened(subprotocol: "rivesync.v1")], "connection \(index): \(events)")
                    connection.close()
                }
            }
            #expect(churn.stop() > 0, "no context was made during the handshakes")
            #expect(churn.failure == nil)
            #expect(Set(handler.openedIDs.map { ($0 - 1) % 2 }) == [0, 1], "both threads served")
        }
    }
}

/// Makes and shuts down client contexts on a thread of its own until stopped.
final class ContextChurn: Sendable {
    private let state = Locked((stopped: false, made: 0, failure: String?.none))
    private let done = Latch<Void>()

    init() {
        let state = self.state
        let done = self.done
        Thread {
            while !state.withLock({ $0.stopped }) {
                do {
                    try WebSocketClient().shutdown()
                    state.withLock { $0.made += 1 }
                } catch {
                    state.withLock { $0.failure = "\(error)" }
                    break
                }
            }
            done.fulfil(())
        }.start()
    }

    /// Why it could not make a context, if it could not.
    var failure: String? { state.withLock { $0.failure } }

    /// Stops it (once it is back from the context it is making) and returns how many it made.
    @discardableResult
    func stop() -> Int {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { done.wait() }
        return state.withLock { $0.made }
    }
}
