import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol

/// The connection core's clock: one the test moves; a single daemon (no name is served
/// elsewhere). It records every call the core makes (`calls`, by name), so a test can show
/// what the core asks.
final class MockConnectionEnvironment: ConnectionEnvironment {
    var clock: UInt64 = 1_000_000_000
    /// The names of the calls the core made, in order.
    private(set) var calls: [String] = []

    func now() -> UInt64 {
        calls.append("now")
        return clock
    }
}

/// Drives a `Connections` with events and reads what it answers. Its placement: file `demo`
/// (number 1) on worker 0 with targets `room`, `lobby` and `theme`; two workers. Its settings
/// (`settings`): fixed limits, anonymous access, a token `good` (that `revoke` takes away),
/// file uploads allowed, configured file `demo`, origins `https://app.example` only.
struct ConnectionDriver {
    let environment = MockConnectionEnvironment()
    var core: Connections

    /// Everything, except firing anywhere but under the path `go`.
    static let grants = Grants(scopes: [
        Scope(permissions: [.read, .write, .seePresence, .publishPresence], targets: .any, prefixes: [[]]),
        Scope(permissions: [.fire], targets: .any, prefixes: [["go"]]),
        Scope(permissions: [.create, .load, .metrics], targets: .any, prefixes: [[]]),
    ])

    /// The token `good`, known by a digest that is the token's bytes reversed.
    static let good = ConnectionAccess.Token(name: "good", digest: Array("doog".utf8), grants: grants)

    static let settings = ConnectionSettings(
        limits: ConnectionLimits(
            helloTimeoutSeconds: 10, maxCommandsPerSecond: 100, maxJSONDepth: 16, maxMessageBytes: 1 << 16, maxSubscriptions: 2,
            maxAssetBytes: 1024, maxTransactionCommands: 2),
        access: ConnectionAccess(tokens: [good], anonymous: .allowed, anonymousGrants: grants, digest: { Array($0.utf8.reversed()) }),
        origins: OriginPolicy(allowed: ["https://app.example"], listenHost: "127.0.0.1"), acceptsFiles: true,
        configuredFiles: ["demo"], welcome: ServerMessage.Welcome(protocolVersion: 1, server: "mock", epoch: "e-1", limits: []))

    init() {
        var placement = Placement()
        _ = placement.reserveFile("demo", worker: 0)
        for target in ["room", "lobby", "theme"] { _ = placement.claimTarget(target, file: "demo") }
        core = Connections(environment: environment, settings: Self.settings, placement: placement, workers: 2)
    }

    /// Sends the core its settings with `change` made (a reload).
    @discardableResult
    mutating func configure(_ change: (inout ConnectionSettings) -> Void) -> [ConnectionAction] {
        var settings = core.settings
        change(&settings)
        return core.handle(.configured(settings))
    }

    mutating func open(_ id: UInt64 = 1, origin: String? = nil) -> [ConnectionAction] {
        core.handle(.opened(ConnectionID(id), remoteAddress: "127.0.0.1", origin: origin))
    }

    mutating func send(_ message: JSONValue, from id: UInt64 = 1) -> [ConnectionAction] {
        core.handle(.received(ConnectionID(id), bytes: message.serialized(), isText: true))
    }

    /// Opens connection `id` and says hello.
    mutating func greeted(_ id: UInt64 = 1, token: String? = nil) {
        _ = open(id)
        var hello: [(String, JSONValue)] = [("type", "hello"), ("protocol", [1])]
        if let token { hello.append(("token", .string(token))) }
        _ = send(.object(hello), from: id)
    }
}

extension [ConnectionAction] {
    /// The messages sent, decoded.
    var sent: [JSONValue] {
        compactMap { action in
            guard case .send(let frame, _) = action else { return nil }
            return try? JSONParser().parse(frame.bytes)
        }
    }

    var closes: [CloseCode] {
        compactMap { action in
            guard case .close(_, let code, _) = action else { return nil }
            return code
        }
    }

    var handledCount: Int { filter { if case .handled = $0 { true } else { false } }.count }

    var routed: [Request] {
        compactMap { action in
            guard case .route(_, let request, _, _) = action else { return nil }
            return request
        }
    }

    var background: [BackgroundWork] {
        compactMap { action in
            guard case .startBackground(_, let work, _) = action else { return nil }
            return work
        }
    }
}
