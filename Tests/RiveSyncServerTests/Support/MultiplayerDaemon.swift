import Foundation
import RiveSyncJSON
import RiveSyncTestSupport

/// A real `rivesyncd` for transaction and author tests: the demo schema (targets `theme`,
/// `character`, `lobby`; `lobby` manual when asked) with a tokens file of two tokens — `qa`
/// (every permission) and `kiosk` (read everything, write only `lobby`'s `title`) — and a
/// state directory kept across restarts. Used by one test at a time (`restart` replaces the
/// daemon).
final class MultiplayerDaemon: @unchecked Sendable {
    let directory: URL
    let configPath: String
    private(set) var daemon: DaemonProcess

    static let qa = "qa-token-0123456789"
    static let kiosk = "kiosk-token-0123456789"

    /// The tokens file: `qa` (every permission) and `kiosk` (read everything, write only
    /// `lobby`'s `title`).
    static let tokens: JSONValue = [
        "tokens": [
            [
                "name": "qa", "token": .string(qa),
                "scopes": [["allow": ["read", "write", "fire"], "target": "*"], ["allow": ["create"]]],
            ],
            [
                "name": "kiosk", "token": .string(kiosk),
                "scopes": [["allow": ["read"], "target": "*"], ["allow": ["write"], "target": "lobby", "paths": ["title"]]],
            ],
        ]
    ]

    /// The configuration (tokens in `tokens.json` beside it), with `extra` keys.
    static func configuration(manualLobby: Bool, extra: [(String, JSONValue)]) -> JSONValue {
        AuthDaemon.configuration(auth: [], tokens: true, manualLobby: manualLobby, extra: [("snapshotEvery", 10)] + extra)
    }

    var stateDirectory: String { directory.appendingPathComponent("state").path }

    /// Starts the daemon; `extra` adds top-level configuration keys (`"authors": false`).
    init(manualLobby: Bool = false, extra: [(String, JSONValue)] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-txauthors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.tokens.serialized()).write(to: directory.appendingPathComponent("tokens.json"))
        let config = Self.configuration(
            manualLobby: manualLobby, extra: [("stateDirectory", .string(directory.appendingPathComponent("state").path))] + extra)
        configPath = directory.appendingPathComponent("config.json").path
        try Data(config.serialized()).write(to: URL(fileURLWithPath: configPath))
        do {
            daemon = try DaemonProcess(["--config", configPath])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Stops the daemon (SIGTERM, journals synced) and starts it again on the same state.
    func restart() throws {
        daemon.stop()
        daemon = try DaemonProcess(["--config", configPath])
    }

    /// A connection that said `hello` with `token` and `client` and got `welcome`.
    func connect(token: String = qa, client: String? = nil) async throws -> TestClient {
        let connection = try TestClient(url: daemon.url)
        var hello: [(String, JSONValue)] = [("type", "hello"), ("protocol", [1]), ("token", .string(token))]
        if let client { hello.append(("client", .string(client))) }
        let welcome = try await connection.request(.object(hello))
        guard welcome["type"] == "welcome" else { throw TestClient.Timeout(what: "welcome, got \(welcome.jsonText)") }
        return connection
    }

    /// Every byte under the state directory, as text (to look for what the journal kept).
    func journalText() throws -> String { try Self.journalText(in: stateDirectory) }

    /// Every byte under `directory`, as text.
    static func journalText(in directory: String) throws -> String {
        var text = ""
        let root = URL(fileURLWithPath: directory)
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return text }
        for case let file as URL in files where !file.hasDirectoryPath {
            text += String(decoding: try Data(contentsOf: file), as: UTF8.self)
        }
        return text
    }

    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension MultiplayerDaemon: StoppedAfterUse {
    func stopAndWait() { stop() }

    /// `restart()` on a dispatch thread (not the cooperative pool).
    func restarted() async throws { try await offThePool { try self.restart() } }
}

/// Starts a `MultiplayerDaemon` on a dispatch thread, runs `body` with it, and always stops
/// it afterwards (off the pool), also when `body` throws.
func withMultiplayerDaemon<T>(
    manualLobby: Bool = false, extra: [(String, JSONValue)] = [], isolation: isolated (any Actor)? = #isolation,
    _ body: (MultiplayerDaemon) async throws -> T
) async throws -> T {
    let daemon = try await offThePool { try MultiplayerDaemon(manualLobby: manualLobby, extra: extra) }
    return try await stopping(daemon, isolation: isolation, body)
}
