import Foundation
import RiveSyncJSON
import RiveSyncTestSupport
import RiveSyncTransport

/// A real `rivesyncd` for access-control tests: the demo schema (targets `theme`,
/// `character`, `lobby`) from a configuration in a temporary directory, with an `auth`
/// section and a tokens file that a test can rewrite and reload with SIGHUP.
final class AuthDaemon: Sendable {
    let directory: URL
    let daemon: DaemonProcess
    var tokensPath: String { directory.appendingPathComponent("tokens.json").path }

    /// Starts the daemon. `auth` is the `auth` section (its `tokensFile` is `tokens.json` when
    /// `tokens` is given); `extra` adds top-level configuration keys (e.g. `tls`).
    init(auth: [(String, JSONValue)], tokens: JSONValue?, extra: [(String, JSONValue)] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let tokens { try Data(tokens.serialized()).write(to: directory.appendingPathComponent("tokens.json")) }
        let config = Self.configuration(auth: auth, tokens: tokens != nil, extra: extra)
        let configPath = directory.appendingPathComponent("config.json").path
        try Data(config.serialized()).write(to: URL(fileURLWithPath: configPath))
        do {
            daemon = try DaemonProcess(["--config", configPath])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The configuration: the demo file, its `theme` instance, the state machines `character`
    /// and `lobby` (manual when `manualLobby`), the `auth` section (`tokensFile` `tokens.json`
    /// when `tokens`), and `extra`.
    static func configuration(
        auth: [(String, JSONValue)], tokens: Bool, manualLobby: Bool = false, extra: [(String, JSONValue)]
    ) -> JSONValue {
        let lobby: JSONValue =
            manualLobby
            ? ["name": "lobby", "file": "demo", "artboard": "Lobby", "globals": ["Theme": "theme"], "mode": "manual"]
            : ["name": "lobby", "file": "demo", "artboard": "Lobby", "globals": ["Theme": "theme"]]
        return .object(
            [
                ("files", [["name": "demo", "path": .string(DaemonProcess.packageRoot + "/protocol/examples/demo.schema.json")]]),
                ("instances", [["name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"]]),
                (
                    "stateMachines",
                    [["name": "character", "file": "demo", "artboard": "Character", "globals": ["Theme": "theme"]], lobby]
                ),
                ("auth", .object(tokens ? auth + [("tokensFile", "tokens.json")] : auth)),
            ] + extra)
    }

    /// A token entry of the tokens file.
    static func token(_ name: String, _ secret: String, _ scopes: JSONValue) -> JSONValue {
        ["name": .string(name), "token": .string(secret), "scopes": scopes]
    }

    /// A connection that has said `hello` (with `token`, if any) and got `welcome`.
    func connect(token: String?) async throws -> TestClient {
        let client = try TestClient(url: daemon.url)
        let welcome = try await client.request(Self.hello(token))
        guard welcome["type"] == "welcome" else { throw TestClient.Timeout(what: "welcome, got \(welcome.jsonText)") }
        return client
    }

    static func hello(_ token: String?) -> JSONValue {
        token.map { ["type": "hello", "protocol": [1], "token": .string($0)] } ?? ["type": "hello", "protocol": [1]]
    }

    /// What a connection got first after its `hello`.
    enum FirstAnswer: Equatable {
        case message(JSONValue)
        case closed(code: UInt16?)
    }

    /// Connects with an `Origin` header, says `hello` with `token`, and returns the first
    /// message or the close (waiting with a hang guard only).
    func hello(origin: String, token: String) async throws -> FirstAnswer {
        let events = Locked<[ClientEvent]>([])
        let connection = try TestClient.transport.connect(to: daemon.url, subprotocol: "rivesync.v1", origin: origin) { event in
            events.withLock { $0.append(event) }
        }
        defer { _ = connection.close() }
        _ = connection.send(text: Self.hello(token).jsonText)
        return try await waitFor("an answer to hello from origin \(origin)") {
            for event in events.withLock({ $0 }) {
                switch event {
                case .message(let bytes, _): return .message(try JSONParser().parse(bytes))
                case .closed(let code, _): return .closed(code: code)
                case .failed: return .closed(code: nil)
                case .opened: continue
                }
            }
            return nil
        }
    }

    /// Replaces the tokens file.
    func writeTokens(_ tokens: JSONValue) throws {
        try Data(tokens.serialized()).write(to: URL(fileURLWithPath: tokensPath))
    }

    /// Sends SIGHUP and waits (hang guard only) until the daemon logs one more line containing
    /// `marker` ("tokens reloaded" or "tokens file rejected").
    func reload(until marker: String) async throws {
        let before = daemon.stderr.components(separatedBy: marker).count
        kill(daemon.pid, SIGHUP)
        try await waitUntil("'\(marker)' after SIGHUP:\n\(daemon.stderr)") {
            daemon.stderr.components(separatedBy: marker).count > before
        }
    }

    /// Stops the daemon and removes the directory.
    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension AuthDaemon: StoppedAfterUse {
    func stopAndWait() { stop() }
}

/// Starts an `AuthDaemon` on a dispatch thread, runs `body` with it, and always stops it
/// afterwards (off the pool), also when `body` throws.
func withAuthDaemon<T>(
    auth: [(String, JSONValue)], tokens: JSONValue?, extra: [(String, JSONValue)] = [], isolation: isolated (any Actor)? = #isolation,
    _ body: (AuthDaemon) async throws -> T
) async throws -> T {
    let server = try await offThePool { try AuthDaemon(auth: auth, tokens: tokens, extra: extra) }
    return try await stopping(server, isolation: isolation, body)
}

extension TestClient {
    /// Waits (hang guard only) until the connection has ended; returns its close code.
    func closeCodeWhenClosed() async throws -> UInt16? {
        try await waitFor("the connection to close") { closeCode }
    }
}
