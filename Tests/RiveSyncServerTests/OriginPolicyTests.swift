import Foundation
import RiveSyncCore
import RiveSyncJSON
import RiveSyncTestSupport
import Testing

@testable import RiveSyncServer

/// The default `Origin` policy (no `allowedOrigins`): browsers only from the daemon's own
/// pages on its own port (loopback, the listen address, this machine's addresses as literals);
/// other sites, other ports, `null` and host names other than `localhost` are closed with 1008;
/// clients that send no `Origin` are unaffected.
@Suite struct OriginPolicyTests {
    @Test func originsAreParsedAsSchemeHostAndPort() {
        #expect(OriginPolicy.hostAndPort(of: "http://127.0.0.1:7420")! == ("127.0.0.1", 7420))
        #expect(OriginPolicy.hostAndPort(of: "HTTPS://LocalHost")! == ("localhost", 443))
        #expect(OriginPolicy.hostAndPort(of: "http://[::1]:8080")! == ("::1", 8080))
        #expect(OriginPolicy.hostAndPort(of: "http://example.com")! == ("example.com", 80))
        for bad in [
            "null", "", "file://", "ws://127.0.0.1:7420", "http://127.0.0.1:7420/", "http://a@127.0.0.1", "http://[::1", "http://h:0",
        ] {
            #expect(OriginPolicy.hostAndPort(of: bad) == nil, "\(bad)")
        }
    }

    @Test func withoutAListOnlyTheDaemonsOwnOriginsAreAdmitted() {
        let policy = OriginPolicy(allowed: nil, listenHost: "127.0.0.1", port: 7420)
        for own in [
            "http://127.0.0.1:7420", "http://localhost:7420", "https://127.0.0.1:7420", "http://[::1]:7420", "http://127.0.0.2:7420",
        ] {
            #expect(policy.admits(own), "\(own)")
        }
        for other in [
            "http://127.0.0.1:8000", "https://evil.example", "http://evil.example:7420", "null", "", "http://localhost",
            "http://10.0.0.1.nip.io:7420",
        ] {
            #expect(!policy.admits(other), "\(other)")
        }
        #expect(policy.admits(nil), "no Origin: not a browser")
        for loopback in ["127.0.0.1", "127.255.0.9", "localhost", "::1"] { #expect(OriginPolicy.isLoopback(loopback), "\(loopback)") }
        for other in ["127.1", "0127.0.0.1", "127.0.0.256", "127.0.0.1.nip.io", "128.0.0.1", "127.0.0."] {
            #expect(!OriginPolicy.isLoopback(other), "\(other)")
        }
        #expect(!OriginPolicy(allowed: nil, listenHost: "127.0.0.1").admits("http://127.0.0.1:7420"), "nothing before the port is known")
        // An address of this machine written as a literal is its own; the wildcard listen address names none.
        let machine = OriginPolicy.interfaceAddresses().first { !OriginPolicy.isLoopback($0) && !$0.contains(":") } ?? "127.0.0.1"
        let wildcard = OriginPolicy(allowed: nil, listenHost: "0.0.0.0", port: 7420, interfaceAddresses: OriginPolicy.interfaceAddresses())
        #expect(wildcard.admits("http://\(machine):7420"))
        #expect(!wildcard.admits("http://0.0.0.0:7420"))
        // A configured list is exactly what it says.
        let listed = OriginPolicy(allowed: ["https://app.example"], listenHost: "127.0.0.1", port: 7420)
        #expect(listed.admits("https://app.example"))
        #expect(!listed.admits("http://127.0.0.1:7420"))
    }

    /// Through a `--demo` daemon: what a browser page of another site gets, and what the
    /// daemon's own pages (the inspector and preview) get.
    @Test func aDemoDaemonRefusesOtherSitesAndServesItsOwnPages() async throws {
        try await withDaemon(["--demo"]) { daemon in
            let port = daemon.port
            func hello(_ origin: String?) async -> String {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        do {
                            let socket = try RawSocket.webSocket(port: port, headers: origin.map { "Origin: \($0)\r\n" } ?? "")
                            try socket.send(text: #"{"type": "hello", "protocol": [1]}"#)
                            let reply = try JSONParser().parse(try socket.readMessage())
                            continuation.resume(returning: reply["type"]?.stringValue ?? reply.jsonText)
                        } catch RawSocket.Failure.closed(let code) {
                            continuation.resume(returning: "closed \(code.map(String.init) ?? "-")")
                        } catch {
                            continuation.resume(returning: "failed \(error)")
                        }
                    }
                }
            }
            #expect(await hello(nil) == "welcome", "a client without Origin is not a browser")
            #expect(await hello("http://127.0.0.1:\(port)") == "welcome", "the inspector's own origin")
            #expect(await hello("http://localhost:\(port)") == "welcome")
            #expect(await hello("https://evil.example") == "closed 1008")
            #expect(await hello("http://evil.example:\(port)") == "closed 1008", "a name DNS rebinding could point here")
            #expect(await hello("http://127.0.0.1:\(port + 1)") == "closed 1008", "another loopback server's page")
            #expect(await hello("null") == "closed 1008")
        }
    }
}
