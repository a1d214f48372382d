import RiveSyncCore
import RiveSyncJSON
import RiveSyncProtocol

/// A daemon for the connection core: a clock the test moves, fixed limits, anonymous access,
/// and a token `good` that a test can revoke. It records every call the core makes (`calls`,
/// by name), so a test can show what the core asks and what it never does.
final class MockConnectionEnvironment: ConnectionEnvironment {
    var clock: UInt64 = 1_000_000_000
    var configuredLimits = ConnectionLimits(
        helloTimeoutSeconds: 10, maxCommandsPerSecond: 100, maxJSONDepth: 16, maxMessageBytes: 1 << 16, maxSubscriptions: 2,
        maxAssetBytes: 1024, maxTransactionCommands: 2)
    var revoked = false
    /// Configuration `allowFileUploads`.
    var allowFileUploads = true
    /// The configuration's files.
    var configured: Set<String> = ["demo"]
    /// The names of the calls the core made, in order.
    private(set) var calls: [String] = []

    func now() -> UInt64 {
        calls.append("now")
        return clock
    }

    var limits: ConnectionLimits {
        calls.append("limits")
        return configuredLimits
    }

    var acceptsFiles: Bool {
        calls.append("acceptsFiles")
        return allowFileUploads
    }

    var configuredFiles: Set<String> {
        calls.append("configuredFiles")
        return configured
    }

    func admits(origin: String?) -> Bool {
        calls.append("admits")
        return origin != "https://evil.example"
    }

    func authenticate(token: String?, remoteAddress: String) -> Identity? {
        calls.append("authenticate")
        return switch token {
        case nil: .anonymous
        case "good": .token(name: "good", digest: [1])
        default: nil
        }
    }

    /// Everything, except firing anywhere but under the path `go`; nil for the token once
    /// revoked.
    func grants(of identity: Identity) -> Grants? {
        calls.append("grants")
        guard identity == .anonymous || !revoked else { return nil }
        return Grants(scopes: [
            Scope(permissions: [.read, .write, .seePresence, .publishPresence], targets: .any, prefixes: [[]]),
            Scope(permissions: [.fire], targets: .any, prefixes: [["go"]]),
            Scope(permissions: [.create, .load, .metrics], targets: .any, prefixes: [[]]),
        ])
    }

    func welcome(id: JSONValue?) -> ServerMessage {
        calls.append("welcome")
        return .welcome(ServerMessage.Welcome(protocolVersion: 1, server: "mock", epoch: "e-1", limits: []), id: id)
    }
}

/// Drives a `Connections` with events and reads what it answers. Its placement: file `demo`
/// (number 1) on worker 0 with targets `room`, `lobby` and `theme`; two workers.
struct ConnectionDriver {
    let environment = MockConnectionEnvironment()
    var core: Connections

    init() {
        var placement = Placement()
        _ = placement.reserveFile("demo", worker: 0)
        for target in ["room", "lobby", "theme"] { _ = placement.claimTarget(target, file: "demo") }
        core = Connections(environment: environment, placement: placement, workers: 2)
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
            guard case .route(_, let request, _, _, _) = action else { return nil }
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
