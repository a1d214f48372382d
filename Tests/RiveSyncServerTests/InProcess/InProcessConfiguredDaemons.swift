import Foundation
import RiveSyncInProcess
import RiveSyncJSON
import RiveSyncTestSupport

@testable import RiveSyncServer

extension InProcessDaemon {
    /// The daemon of a configuration document written (with `tokens`, as `tokens.json`) into a
    /// new temporary directory, as `rivesyncd --config` would read it, in this process.
    convenience init(config: JSONValue, tokens: JSONValue? = nil) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rivesync-inprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // read by the time init returns
        if let tokens { try Data(tokens.serialized()).write(to: directory.appendingPathComponent("tokens.json")) }
        let path = directory.appendingPathComponent("config.json").path
        try Data(config.serialized()).write(to: URL(fileURLWithPath: path))
        try self.init(arguments: ["--config", path])
    }
}

/// `AuthDaemon`'s daemon (the demo schema, an `auth` section, a tokens file) in this process.
struct InProcessAuthDaemon: Sendable {
    let daemon: InProcessDaemon

    init(auth: [(String, JSONValue)], tokens: JSONValue?, extra: [(String, JSONValue)] = []) throws {
        daemon = try InProcessDaemon(config: AuthDaemon.configuration(auth: auth, tokens: tokens != nil, extra: extra), tokens: tokens)
    }

    /// A connection that has said `hello` (with `token`, if any) and got `welcome`.
    func connect(token: String?) async throws -> InProcessClient { try await daemon.connected(token: token) }
}

/// Runs `body` with an `InProcessAuthDaemon` (the in-process form of `withAuthDaemon`).
func withInProcessAuthDaemon<T>(
    auth: [(String, JSONValue)], tokens: JSONValue?, extra: [(String, JSONValue)] = [], _ body: (InProcessAuthDaemon) async throws -> T
) async throws -> T {
    try await body(try InProcessAuthDaemon(auth: auth, tokens: tokens, extra: extra))
}

/// `MultiplayerDaemon`'s daemon (the demo schema, tokens `qa` and `kiosk`) in this process,
/// its log in memory: for the tests that need no restart.
struct InProcessMultiplayerDaemon: Sendable {
    let daemon: InProcessDaemon

    init(manualLobby: Bool = false, extra: [(String, JSONValue)] = []) throws {
        daemon = try InProcessDaemon(
            config: MultiplayerDaemon.configuration(manualLobby: manualLobby, extra: extra), tokens: MultiplayerDaemon.tokens)
    }

    /// A connection that said `hello` with `token` and `client` and got `welcome`.
    func connect(token: String = MultiplayerDaemon.qa, client: String? = nil) async throws -> InProcessClient {
        try await daemon.connected(token: token, client: client)
    }
}

/// Runs `body` with an `InProcessMultiplayerDaemon` (the in-process form of
/// `withMultiplayerDaemon`).
func withInProcessMultiplayerDaemon<T>(
    manualLobby: Bool = false, extra: [(String, JSONValue)] = [], _ body: (InProcessMultiplayerDaemon) async throws -> T
) async throws -> T {
    try await body(try InProcessMultiplayerDaemon(manualLobby: manualLobby, extra: extra))
}

extension InProcessAuthDaemon: StoppedAfterUse {
    /// Lets the daemon finish what it was handed (nothing runs outside this process).
    func stopAndWait() { daemon.drain() }
}

/// What a test asks of a protocol client, on sockets (`TestClient`) or in-process
/// (`InProcessClient`): helpers shared by both kinds of test take it.
protocol RequestingClient: Sendable {
    /// Sends a request with a fresh id and returns the reply with that id.
    func request(_ message: JSONValue) async throws -> JSONValue

    /// Removes and returns the first message that matches, waiting for it.
    func next(where matches: @escaping @Sendable (JSONValue) -> Bool, what: String, seconds: Double) async throws -> JSONValue

    /// The next batch of a target.
    func nextBatch(_ target: String) async throws -> JSONValue

    /// Messages received and not yet taken.
    var buffered: [JSONValue] { get }
}

extension TestClient: RequestingClient {}
extension InProcessClient: RequestingClient {}
