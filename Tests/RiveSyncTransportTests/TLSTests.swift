import Foundation
import RiveSyncTestSupport
import Testing

@testable import RiveSyncTransport

@Suite struct TLSTests {
    @Test func wssRoundTripWithSelfSignedCertificate() async throws {
        let tls = try TemporaryCertificate()
        defer { tls.remove() }
        let (cert, key) = (tls.certificate, tls.key)

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

    /// A libwebsockets context made in the process while a client's TLS handshake is under way
    /// (here: between its ClientHello and the server's certificate, held back by a
    /// `HandshakeGate`) used to fail that handshake ("connect SSL err 1", `ContextCreations`):
    /// the connection is dialled again and opens.
    @Test func aContextMadeDuringTheHandshakeDoesNotFailIt() async throws {
        let tls = try TemporaryCertificate()
        defer { tls.remove() }
        let (cert, key) = (tls.certificate, tls.key)
        try await withServer({
            $0.serviceThreads = 2
            $0.tlsCertificatePath = cert
            $0.tlsKeyPath = key
        }) { server, handler in
            let gate = try HandshakeGate(to: try #require(server.port)) { try WebSocketClient().shutdown() }
            defer { gate.stop() }
            try await withClient { client in
                let (connection, stream) = try client.connect(
                    to: "wss://127.0.0.1:\(gate.port)/", subprotocol: "rivesync.v1",
                    tls: .init(allowSelfSigned: true, skipHostnameCheck: true))
                let events = try await collect(stream) { $0 == .opened(subprotocol: "rivesync.v1") || $0.isTerminal }
                #expect(events == [.opened(subprotocol: "rivesync.v1")])
                connection.close()
            }
            let outcome = gate.stop()
            #expect(outcome.held, "the first handshake was not held")
            #expect(outcome.failure == nil)
            // Again once, or more when other tests of the process make contexts meanwhile.
            #expect(outcome.connections >= 2, "dialled again")
            #expect(handler.openedIDs.count == 1)
        }
    }
}

/// A TCP relay in front of a server: the first connection's client bytes pass at once, the
/// server's first reply (in TLS: its certificate) only after `whileHeld` ran; later connections
/// pass untouched. Blocking sockets, a thread per direction; each connection's descriptors
/// are closed once both directions ended.
final class HandshakeGate: Sendable {
    /// What happened.
    struct Outcome: Sendable {
        var connections = 0
        var held = false
        var failure: String?
    }

    /// The port to connect to instead of the server's.
    let port: Int
    private let listener: Int32
    private let outcome = Locked(Outcome())
    private let accepting = Latch<Void>()
    private let stopped = Locked(false)

    init(to serverPort: Int, whileHeld: @escaping @Sendable () throws -> Void) throws {
        (listener, port) = try Self.listen()
        let (listener, outcome, accepting) = (listener, outcome, accepting)
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { break }
                let first = outcome.withLock { outcome in
                    outcome.connections += 1
                    return outcome.connections == 1
                }
                let serverFD = Self.connected(to: serverPort)
                guard serverFD >= 0 else {
                    outcome.withLock { $0.failure = "cannot reach the server: errno \(errno)" }
                    close(client)
                    continue
                }
                Thread {
                    let upstream = Latch<Void>()
                    Thread {
                        Self.relay(from: client, to: serverFD)
                        upstream.fulfil(())
                    }.start()
                    Self.relay(from: serverFD, to: client) {
                        guard first else { return }
                        do { try whileHeld() } catch { outcome.withLock { $0.failure = "\(error)" } }
                        outcome.withLock { $0.held = true }
                    }
                    upstream.wait()
                    close(client)
                    close(serverFD)
                }.start()
            }
            accepting.fulfil(())
        }.start()
    }

    /// A socket listening on 127.0.0.1 and its port.
    private static func listen() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && Glibc.listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, listening else { throw RawSocket.Failure.io(errno) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port`, or -1.
    private static func connected(to port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, rc == 0 else {
            if fd >= 0 { close(fd) }
            return -1
        }
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Copies `source` to `destination` until `source` ends, running `beforeFirst` before the
    /// first chunk is passed on; then ends `destination`'s writing side.
    private static func relay(from source: Int32, to destination: Int32, beforeFirst: () -> Void = {}) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var isFirst = true
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            if isFirst {
                beforeFirst()
                isFirst = false
            }
            let sent = buffer.withUnsafeBytes { send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            guard sent == count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
        shutdown(source, Int32(SHUT_RD))
    }

    /// Stops accepting (once) and returns what happened.
    @discardableResult
    func stop() -> Outcome {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            accepting.wait()
            close(listener)
        }
        return outcome.withLock { $0 }
    }
}
